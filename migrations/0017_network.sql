-- +goose Up
-- Customers' risk ratings and the transaction network (issue 16 points 5 and 7;
-- docs/guide/customers.md, docs/guide/network.md).

-- 1. Network traversal. transactions_sender_idx (0005) serves out-edges; in-edges need the
--    receiver side, and shared identifiers need device, IP address and BVN lookups. Each is
--    partial (NULLs are common and never a link) and carries the sender's account so the
--    traversal reads the index only. Their cost on the screening insert is measured in
--    docs/guide/network.md "Cost on the screening path".
CREATE INDEX transactions_receiver_idx ON transactions (tenant_id, receiver_account_number, transaction_timestamp DESC)
  INCLUDE (sender_account_number, amount_ngn) WHERE receiver_account_number IS NOT NULL;
CREATE INDEX transactions_device_idx ON transactions (tenant_id, device_id) INCLUDE (sender_account_number)
  WHERE device_id IS NOT NULL;
CREATE INDEX transactions_ip_idx ON transactions (tenant_id, ip_address) INCLUDE (sender_account_number)
  WHERE ip_address IS NOT NULL;
CREATE INDEX transactions_sender_bvn_idx ON transactions (tenant_id, sender_bvn) INCLUDE (sender_account_number)
  WHERE sender_bvn IS NOT NULL;

-- A customer profile is found from a transaction or a case by its BVN.
CREATE INDEX customer_profiles_tenant_bvn_idx ON customer_profiles (tenant_id, bvn) WHERE bvn <> '';
-- The customer search finds a whole NIN too.
CREATE INDEX customer_profiles_tenant_nin_idx ON customer_profiles (tenant_id, nin) WHERE nin <> '';

-- 2. customer_risk: the current rating of a customer profile (one row per profile), with what
--    the triggers below need to find it from a KYC or KYB application (the KYC BVN is sealed,
--    so the keyed hash is copied here by the rater, internal/postgres/customer_store.go).
CREATE TABLE customer_risk (
  tenant_id          uuid NOT NULL REFERENCES tenants (id),
  customer_id        text NOT NULL REFERENCES customer_profiles (id),
  rating             text NOT NULL CHECK (rating IN ('LOW', 'MEDIUM', 'HIGH')),
  score              integer NOT NULL,
  factors            jsonb NOT NULL,
  bvn_hash           bytea,
  rc_key             text NOT NULL DEFAULT '',
  computed_at        timestamptz NOT NULL,
  last_reviewed_at   timestamptz,
  next_review_at     timestamptz NOT NULL,
  -- review_notified_for: the next_review_at whose due notice was sent (one notice per due date).
  review_notified_for timestamptz,
  PRIMARY KEY (tenant_id, customer_id)
);
CREATE INDEX customer_risk_review_idx ON customer_risk (tenant_id, next_review_at);
CREATE INDEX customer_risk_bvn_hash_idx ON customer_risk (tenant_id, bvn_hash) WHERE bvn_hash IS NOT NULL;
CREATE INDEX customer_risk_rc_idx ON customer_risk (tenant_id, rc_key) WHERE rc_key <> '';

-- customer_risk_history: every computed rating that differs from the previous one (the
-- spec's risk history), newest last.
CREATE TABLE customer_risk_history (
  id              bigserial PRIMARY KEY,
  tenant_id       uuid NOT NULL REFERENCES tenants (id),
  customer_id     text NOT NULL REFERENCES customer_profiles (id),
  rating          text NOT NULL,
  previous_rating text,
  score           integer NOT NULL,
  factors         jsonb NOT NULL,
  reason          text NOT NULL,
  created_at      timestamptz NOT NULL
);
CREATE INDEX customer_risk_history_idx ON customer_risk_history (tenant_id, customer_id, id DESC);

-- customer_risk_queue: customers whose rating inputs changed, queued by the triggers below in
-- the transaction of the change and drained by a River periodic job (jobs.CustomerRiskWorker).
-- One row per customer: a burst of changes is one recomputation.
CREATE TABLE customer_risk_queue (
  tenant_id   uuid NOT NULL REFERENCES tenants (id),
  customer_id text NOT NULL REFERENCES customer_profiles (id),
  reason      text NOT NULL,
  queued_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, customer_id)
);

-- +goose StatementBegin
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['customer_risk', 'customer_risk_history', 'customer_risk_queue'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant())', t);
  END LOOP;
END
$$;
-- +goose StatementEnd
GRANT SELECT, INSERT, UPDATE, DELETE ON customer_risk, customer_risk_history, customer_risk_queue TO complyd_app;
GRANT USAGE ON SEQUENCE customer_risk_history_id_seq TO complyd_app;

-- 3. The triggers that queue a recomputation in the transaction of the change. They run as the
--    writer (RLS applies; every store sets app.tenant_id before writing) and only insert a
--    queue row, so the change's transaction pays one index probe and one small insert.
-- +goose StatementBegin
-- A screening alert (any outcome but APPROVE) of a sender whose BVN is a customer's. The trigger
-- is per statement over its transition table, like 0018's and 0020's on transactions: the
-- screening commit inserts a whole group commit in one statement, so this is one join and one
-- insert per batch, not a function call per row on the hot path; approved screenings, the
-- common case, are filtered out in the join.
CREATE FUNCTION customer_risk_queue_alert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO customer_risk_queue (tenant_id, customer_id, reason)
  SELECT DISTINCT p.tenant_id, p.id, 'SCREENING_ALERT' FROM new_rows n
  JOIN customer_profiles p ON p.tenant_id = n.tenant_id AND p.bvn = n.sender_bvn AND p.bvn <> ''
  WHERE n.outcome <> 'APPROVE' AND n.sender_bvn IS NOT NULL
  ORDER BY 1, 2
  ON CONFLICT (tenant_id, customer_id) DO NOTHING;
  RETURN NULL;
END
$$;
-- A KYC application decided (status changed): its BVN's customer.
CREATE FUNCTION customer_risk_queue_kyc() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO customer_risk_queue (tenant_id, customer_id, reason)
  SELECT r.tenant_id, r.customer_id, 'KYC_' || NEW.status FROM customer_risk r
  WHERE r.tenant_id = NEW.tenant_id AND r.bvn_hash = NEW.bvn_hash
  ON CONFLICT (tenant_id, customer_id) DO NOTHING;
  RETURN NULL;
END
$$;
-- A KYB application decided: its RC number's customer.
CREATE FUNCTION customer_risk_queue_kyb() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO customer_risk_queue (tenant_id, customer_id, reason)
  SELECT r.tenant_id, r.customer_id, 'KYB_' || NEW.status FROM customer_risk r
  WHERE r.tenant_id = NEW.tenant_id AND r.rc_key = NEW.rc_key AND NEW.rc_key <> ''
  ON CONFLICT (tenant_id, customer_id) DO NOTHING;
  RETURN NULL;
END
$$;
-- A case opened or its status changed: the customer of its transaction's sender or of its KYC
-- application.
CREATE FUNCTION customer_risk_queue_case() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO customer_risk_queue (tenant_id, customer_id, reason)
  SELECT p.tenant_id, p.id, 'CASE_' || NEW.status FROM transactions t
  JOIN customer_profiles p ON p.tenant_id = t.tenant_id AND p.bvn = t.sender_bvn AND p.bvn <> ''
  WHERE NEW.related_transaction_id IS NOT NULL AND t.tenant_id = NEW.tenant_id
    AND t.id::text = NEW.related_transaction_id
  UNION
  SELECT r.tenant_id, r.customer_id, 'CASE_' || NEW.status FROM kyc_applications k
  JOIN customer_risk r ON r.tenant_id = k.tenant_id AND r.bvn_hash = k.bvn_hash
  WHERE NEW.related_kyc_application_id IS NOT NULL AND k.tenant_id = NEW.tenant_id
    AND k.id = NEW.related_kyc_application_id
  ON CONFLICT (tenant_id, customer_id) DO NOTHING;
  RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER customer_risk_alert AFTER INSERT ON transactions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION customer_risk_queue_alert();
CREATE TRIGGER customer_risk_kyc AFTER UPDATE OF status ON kyc_applications
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.bvn_hash IS NOT NULL) EXECUTE FUNCTION customer_risk_queue_kyc();
CREATE TRIGGER customer_risk_kyb AFTER UPDATE OF status ON kyb_applications
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION customer_risk_queue_kyb();
CREATE TRIGGER customer_risk_case_insert AFTER INSERT ON cases
  FOR EACH ROW EXECUTE FUNCTION customer_risk_queue_case();
CREATE TRIGGER customer_risk_case_status AFTER UPDATE OF status ON cases
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION customer_risk_queue_case();

-- +goose Down
DROP TRIGGER customer_risk_case_status ON cases;
DROP TRIGGER customer_risk_case_insert ON cases;
DROP TRIGGER customer_risk_kyb ON kyb_applications;
DROP TRIGGER customer_risk_kyc ON kyc_applications;
DROP TRIGGER customer_risk_alert ON transactions;
DROP FUNCTION customer_risk_queue_case(), customer_risk_queue_kyb(), customer_risk_queue_kyc(), customer_risk_queue_alert();
DROP TABLE customer_risk_queue, customer_risk_history, customer_risk;
DROP INDEX customer_profiles_tenant_nin_idx, customer_profiles_tenant_bvn_idx;
DROP INDEX transactions_sender_bvn_idx, transactions_ip_idx, transactions_device_idx, transactions_receiver_idx;
