-- +goose Up
-- Regulatory reports to the NFIU (issue 14, docs/guide/reports.md): CTR, STR, SAR and FTR records with
-- their transactions, the timeline of who did what, and the tenant's goAML settings.

-- reports is one regulatory report. A draft that the screening commit keeps adding to (one CTR
-- per customer per day, docs/guide/reports.md "Aggregation") has aggregating = true: the partial
-- unique index below is the key of the screening's upsert, and submitting the draft takes it
-- off the key (the next qualifying transaction of that day starts a new draft).
CREATE TABLE reports (
  id                   text PRIMARY KEY,
  tenant_id            uuid NOT NULL REFERENCES tenants (id),
  type                 text NOT NULL CHECK (type IN ('CTR', 'STR', 'SAR', 'FTR')),
  status               text NOT NULL CHECK (status IN ('DRAFT', 'PENDING_APPROVAL', 'APPROVED', 'FILED')),
  origin               text NOT NULL CHECK (origin IN ('SCREENING', 'CASE', 'MANUAL')),
  customer_account     text NOT NULL DEFAULT '',
  customer_name        text NOT NULL DEFAULT '',
  report_day           date NOT NULL,
  aggregating          boolean NOT NULL DEFAULT false,
  -- No foreign keys to cases or transactions: the screening commit queues its case insert in
  -- the same transaction after this row (docs/guide/reports.md "Drafting").
  case_id              text,
  corrects_report_id   text REFERENCES reports (id),
  reason               text NOT NULL DEFAULT '',
  action               text NOT NULL DEFAULT '',
  narrative            text NOT NULL DEFAULT '',
  indicators           text[] NOT NULL DEFAULT '{}',
  rules                text[] NOT NULL DEFAULT '{}',
  deadline_at          timestamptz NOT NULL,
  deadline_notified_at timestamptz,
  prepared_by          uuid REFERENCES users (id), -- NULL when the screening drafted it
  submitted_by         uuid REFERENCES users (id),
  submitted_at         timestamptz,
  approved_by          uuid REFERENCES users (id),
  approved_at          timestamptz,
  rejection_reason     text NOT NULL DEFAULT '',
  filed_by             uuid REFERENCES users (id),
  filed_at             timestamptz,
  filing_reference     text NOT NULL DEFAULT '',
  filing_method        text NOT NULL DEFAULT '',
  created_at           timestamptz NOT NULL,
  updated_at           timestamptz NOT NULL
);
CREATE UNIQUE INDEX reports_draft_key ON reports (tenant_id, customer_account, type, report_day) WHERE aggregating;
CREATE INDEX reports_tenant_created_idx ON reports (tenant_id, created_at DESC, id DESC);
CREATE INDEX reports_tenant_deadline_idx ON reports (tenant_id, deadline_at) WHERE status <> 'FILED';
CREATE INDEX reports_tenant_case_idx ON reports (tenant_id, case_id) WHERE case_id IS NOT NULL;

-- report_transactions are the transactions a report covers.
CREATE TABLE report_transactions (
  tenant_id      uuid NOT NULL,
  report_id      text NOT NULL REFERENCES reports (id),
  transaction_id uuid NOT NULL,
  added_at       timestamptz NOT NULL,
  PRIMARY KEY (report_id, transaction_id)
);

-- report_events is the report's timeline: who did what, when.
CREATE TABLE report_events (
  id         text PRIMARY KEY,
  seq        bigint GENERATED ALWAYS AS IDENTITY,
  tenant_id  uuid NOT NULL,
  report_id  text NOT NULL REFERENCES reports (id),
  action     text NOT NULL,
  actor_id   uuid REFERENCES users (id),
  note       text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL
);
CREATE INDEX report_events_report_idx ON report_events (tenant_id, report_id, seq);

-- report_settings are a tenant's goAML identity, filing endpoint and deadlines (hours after the
-- end of the report's day; NULL = the default of docs/guide/reports.md "Deadlines").
CREATE TABLE report_settings (
  tenant_id              uuid PRIMARY KEY REFERENCES tenants (id),
  rentity_id             text NOT NULL DEFAULT '',
  rentity_branch         text NOT NULL DEFAULT '',
  institution_name       text NOT NULL DEFAULT '',
  institution_code       text NOT NULL DEFAULT '',
  person_first_name      text NOT NULL DEFAULT '',
  person_last_name       text NOT NULL DEFAULT '',
  person_email           text NOT NULL DEFAULT '',
  person_phone           text NOT NULL DEFAULT '',
  person_occupation      text NOT NULL DEFAULT '',
  filing_url             text NOT NULL DEFAULT '',
  filing_token           text NOT NULL DEFAULT '',
  ctr_deadline_hours     integer CHECK (ctr_deadline_hours > 0),
  str_deadline_hours     integer CHECK (str_deadline_hours > 0),
  sar_deadline_hours     integer CHECK (sar_deadline_hours > 0),
  ftr_deadline_hours     integer CHECK (ftr_deadline_hours > 0),
  near_deadline_hours    integer CHECK (near_deadline_hours > 0),
  updated_at             timestamptz NOT NULL
);

-- +goose StatementBegin
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['reports', 'report_transactions', 'report_events', 'report_settings'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant())', t);
  END LOOP;
END
$$;
-- +goose StatementEnd

GRANT SELECT, INSERT, UPDATE ON reports, report_transactions, report_settings TO complyd_app;
GRANT SELECT, INSERT ON report_events TO complyd_app;
GRANT USAGE, SELECT ON SEQUENCE report_events_seq_seq TO complyd_app;

-- +goose Down
DROP TABLE report_settings;
DROP TABLE report_events;
DROP TABLE report_transactions;
DROP TABLE reports;
