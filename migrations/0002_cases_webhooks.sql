-- +goose Up
-- Cases, their timeline, four-eyes proposals and interdictions; webhook endpoint, deliveries and
-- attempts; dashboard notifications (issue 5; docs/guide/cases.md, docs/guide/webhooks.md).

-- case_counters is the per-tenant, per-year numbering row (docs/design/design-choices.md §5): the case insert takes
-- the next value with INSERT … ON CONFLICT DO UPDATE … RETURNING in its own transaction, so the
-- row lock serialises concurrent creations and a rollback gives the number back (no gaps, no
-- duplicates).
CREATE TABLE case_counters (
  tenant_id  uuid NOT NULL REFERENCES tenants (id),
  year       integer NOT NULL,
  last_value integer NOT NULL,
  PRIMARY KEY (tenant_id, year)
);

CREATE TABLE cases (
  id                         text PRIMARY KEY,
  tenant_id                  uuid NOT NULL REFERENCES tenants (id),
  case_number                text NOT NULL,
  type                       text NOT NULL,
  priority                   text NOT NULL CHECK (priority IN ('LOW', 'MEDIUM', 'HIGH', 'CRITICAL')),
  title                      text NOT NULL,
  description                text NOT NULL,
  status                     text NOT NULL CHECK (status IN ('OPEN', 'IN_PROGRESS', 'PENDING_REVIEW', 'ESCALATED',
                               'RESOLVED_TRUE_POSITIVE', 'RESOLVED_FALSE_POSITIVE', 'CLOSED')),
  assigned_to                uuid REFERENCES users (id),
  -- No foreign key: transactions and KYC applications belong to other capabilities' migrations.
  related_transaction_id     text,
  related_kyc_application_id text,
  tags                       text[] NOT NULL DEFAULT '{}',
  resolved_at                timestamptz,
  resolution_note            text NOT NULL DEFAULT '',
  created_by                 uuid REFERENCES users (id), -- NULL when screening created it
  created_at                 timestamptz NOT NULL,
  updated_at                 timestamptz NOT NULL,
  CONSTRAINT cases_number_key UNIQUE (tenant_id, case_number)
);
CREATE INDEX cases_tenant_created_idx ON cases (tenant_id, created_at DESC, id DESC);
CREATE INDEX cases_tenant_status_idx ON cases (tenant_id, status, created_at DESC);
CREATE INDEX cases_tenant_assignee_idx ON cases (tenant_id, assigned_to, created_at DESC);
CREATE INDEX cases_tenant_transaction_idx ON cases (tenant_id, related_transaction_id);

CREATE TABLE case_events (
  id             text PRIMARY KEY,
  seq            bigint GENERATED ALWAYS AS IDENTITY, -- insertion order within one timestamp
  tenant_id      uuid NOT NULL REFERENCES tenants (id),
  case_id        text NOT NULL REFERENCES cases (id),
  event_type     text NOT NULL,
  actor_id       uuid REFERENCES users (id), -- NULL for the system
  description    text NOT NULL,
  previous_value text,
  new_value      text,
  metadata       jsonb,
  created_at     timestamptz NOT NULL
);
CREATE INDEX case_events_case_idx ON case_events (tenant_id, case_id, seq);

CREATE TABLE case_proposals (
  id          text PRIMARY KEY,
  tenant_id   uuid NOT NULL REFERENCES tenants (id),
  case_id     text NOT NULL REFERENCES cases (id),
  resolution  text NOT NULL CHECK (resolution IN ('TRUE_POSITIVE', 'FALSE_POSITIVE')),
  note        text NOT NULL,
  status      text NOT NULL CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED')),
  proposed_by uuid NOT NULL REFERENCES users (id),
  proposed_at timestamptz NOT NULL,
  decided_by  uuid REFERENCES users (id),
  decided_at  timestamptz,
  reason      text NOT NULL DEFAULT ''
);
-- At most one PENDING proposal per case (docs/guide/cases.md): a second one is 409 CONFLICT.
CREATE UNIQUE INDEX case_proposals_one_pending ON case_proposals (case_id) WHERE status = 'PENDING';
CREATE INDEX case_proposals_case_idx ON case_proposals (tenant_id, case_id, proposed_at);

CREATE TABLE case_interdictions (
  id             text PRIMARY KEY,
  tenant_id      uuid NOT NULL REFERENCES tenants (id),
  case_id        text NOT NULL REFERENCES cases (id),
  action         text NOT NULL CHECK (action IN ('FREEZE', 'BLOCK', 'POST_NO_DEBIT')),
  account_number text NOT NULL,
  reason         text NOT NULL,
  status         text NOT NULL CHECK (status IN ('REQUESTED', 'CONFIRMED')),
  requested_by   uuid NOT NULL REFERENCES users (id),
  requested_at   timestamptz NOT NULL,
  confirmed_by   uuid REFERENCES users (id),
  confirmed_at   timestamptz,
  reference      text NOT NULL DEFAULT ''
);
CREATE INDEX case_interdictions_case_idx ON case_interdictions (tenant_id, case_id, requested_at);

-- webhook_endpoints is the tenant's webhook configuration (PATCH /tenants/me/webhooks). The
-- secret is never returned by the API (GET answers secretSet); see docs/guide/webhooks.md "Secrets".
CREATE TABLE webhook_endpoints (
  tenant_id  uuid PRIMARY KEY REFERENCES tenants (id),
  url        text NOT NULL DEFAULT '',
  secret     text NOT NULL DEFAULT '',
  updated_at timestamptz NOT NULL
);

CREATE TABLE webhook_deliveries (
  id               text PRIMARY KEY,
  tenant_id        uuid NOT NULL REFERENCES tenants (id),
  event_id         text NOT NULL,
  event            text NOT NULL,
  url              text NOT NULL,
  payload          bytea NOT NULL, -- the exact body signed and sent on every attempt
  status           text NOT NULL CHECK (status IN ('PENDING', 'DELIVERED', 'FAILED', 'DEAD')),
  attempts         integer NOT NULL DEFAULT 0,
  last_status_code integer,
  last_error       text NOT NULL DEFAULT '',
  next_attempt_at  timestamptz,
  delivered_at     timestamptz,
  dead_at          timestamptz,
  created_at       timestamptz NOT NULL
);
CREATE INDEX webhook_deliveries_tenant_idx ON webhook_deliveries (tenant_id, created_at DESC, id DESC);
CREATE INDEX webhook_deliveries_dead_idx ON webhook_deliveries (tenant_id, dead_at) WHERE status = 'DEAD';

CREATE TABLE webhook_attempts (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id    uuid NOT NULL REFERENCES tenants (id),
  delivery_id  text NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempt      integer NOT NULL,
  status_code  integer,
  error        text NOT NULL DEFAULT '',
  duration_ms  integer NOT NULL,
  attempted_at timestamptz NOT NULL
);
CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (tenant_id, delivery_id, attempt);

-- notifications are the dashboard notifications of one user (GET /notifications).
CREATE TABLE notifications (
  id         text PRIMARY KEY,
  tenant_id  uuid NOT NULL REFERENCES tenants (id),
  user_id    uuid NOT NULL REFERENCES users (id),
  kind       text NOT NULL,
  title      text NOT NULL,
  message    text NOT NULL,
  case_id    text REFERENCES cases (id),
  read_at    timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX notifications_user_idx ON notifications (tenant_id, user_id, created_at DESC, id DESC);
CREATE INDEX notifications_unread_idx ON notifications (tenant_id, user_id, created_at DESC) WHERE read_at IS NULL;

-- +goose StatementBegin
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['case_counters', 'cases', 'case_events', 'case_proposals', 'case_interdictions',
                           'webhook_endpoints', 'webhook_deliveries', 'webhook_attempts', 'notifications'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant())', t);
  END LOOP;
END
$$;
-- +goose StatementEnd

GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO complyd_app;
GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO complyd_app;

-- +goose Down
DROP TABLE notifications, webhook_attempts, webhook_deliveries, webhook_endpoints, case_interdictions,
  case_proposals, case_events, cases, case_counters;
