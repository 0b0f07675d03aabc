-- +goose Up
-- Issue 50 point 3 (docs/guide/dashboard-cases.md "Inboxes and service level"): case inboxes per team,
-- a due time on every case from its priority, automatic assignment among an inbox's members, and
-- the queue's saved views.
--
-- An inbox takes the cases of its case_types (an inbox with no types takes every type no other
-- inbox names). Its service level is minutes per priority; a case is due at created_at plus its
-- priority's minutes. assignment MANUAL leaves cases unassigned; ROUND_ROBIN gives each new case
-- to the active member assigned least recently; LEAST_LOADED to the active member with the fewest
-- open cases (ties: least recently assigned, then user id).
CREATE TABLE case_inboxes (
  id                   uuid PRIMARY KEY,
  tenant_id            uuid NOT NULL REFERENCES tenants (id),
  name                 text NOT NULL,
  case_types           text[] NOT NULL DEFAULT '{}',
  assignment           text NOT NULL DEFAULT 'MANUAL' CHECK (assignment IN ('MANUAL', 'ROUND_ROBIN', 'LEAST_LOADED')),
  sla_critical_minutes integer NOT NULL DEFAULT 240 CHECK (sla_critical_minutes > 0),
  sla_high_minutes     integer NOT NULL DEFAULT 1440 CHECK (sla_high_minutes > 0),
  sla_medium_minutes   integer NOT NULL DEFAULT 4320 CHECK (sla_medium_minutes > 0),
  sla_low_minutes      integer NOT NULL DEFAULT 10080 CHECK (sla_low_minutes > 0),
  created_at           timestamptz NOT NULL,
  updated_at           timestamptz NOT NULL,
  CONSTRAINT case_inboxes_tenant_name_key UNIQUE (tenant_id, name)
);
CREATE INDEX case_inboxes_tenant_idx ON case_inboxes (tenant_id, created_at, id);

CREATE TABLE case_inbox_members (
  tenant_id        uuid NOT NULL REFERENCES tenants (id),
  inbox_id         uuid NOT NULL REFERENCES case_inboxes (id) ON DELETE CASCADE,
  user_id          uuid NOT NULL REFERENCES users (id),
  last_assigned_at timestamptz,
  PRIMARY KEY (inbox_id, user_id)
);
CREATE INDEX case_inbox_members_user_idx ON case_inbox_members (tenant_id, user_id);

-- Saved views of the queue: a user's named filters, private to that user.
CREATE TABLE case_saved_views (
  id         uuid PRIMARY KEY,
  tenant_id  uuid NOT NULL REFERENCES tenants (id),
  user_id    uuid NOT NULL REFERENCES users (id),
  name       text NOT NULL,
  filters    jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  CONSTRAINT case_saved_views_user_name_key UNIQUE (tenant_id, user_id, name)
);

ALTER TABLE case_inboxes ENABLE ROW LEVEL SECURITY;
ALTER TABLE case_inboxes FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON case_inboxes USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant());
ALTER TABLE case_inbox_members ENABLE ROW LEVEL SECURITY;
ALTER TABLE case_inbox_members FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON case_inbox_members USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant());
ALTER TABLE case_saved_views ENABLE ROW LEVEL SECURITY;
ALTER TABLE case_saved_views FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON case_saved_views USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant());
GRANT SELECT, INSERT, UPDATE, DELETE ON case_inboxes, case_inbox_members, case_saved_views TO complyd_app;

ALTER TABLE cases ADD COLUMN inbox_id uuid REFERENCES case_inboxes (id);
ALTER TABLE cases ADD COLUMN due_at timestamptz;
-- Cases opened before inboxes: due by the default service level (the column defaults above).
UPDATE cases SET due_at = created_at + make_interval(mins => CASE priority
  WHEN 'CRITICAL' THEN 240 WHEN 'HIGH' THEN 1440 WHEN 'MEDIUM' THEN 4320 ELSE 10080 END);

-- The queue's service-level order (breached first, then soonest due), with a status filter or
-- without; a member's load (open cases assigned) for LEAST_LOADED; an inbox's cases.
CREATE INDEX cases_tenant_status_due_idx ON cases (tenant_id, status, due_at, id);
CREATE INDEX cases_tenant_due_idx ON cases (tenant_id, due_at, id);
CREATE INDEX cases_tenant_open_assignee_idx ON cases (tenant_id, assigned_to)
  WHERE status NOT IN ('RESOLVED_TRUE_POSITIVE', 'RESOLVED_FALSE_POSITIVE', 'CLOSED');
CREATE INDEX cases_tenant_inbox_due_idx ON cases (tenant_id, inbox_id, due_at, id) WHERE inbox_id IS NOT NULL;

-- case_route runs before a case's insert, in the creating transaction, whatever path creates it
-- (an officer's POST /cases, the screening commit's multi-row inserts, the rescreen and review
-- cases): it files the case in its inbox, sets due_at from the inbox's service level (or the
-- default one), and, when the inbox assigns automatically and the case has no assignee, picks
-- the member. The inbox row is locked so that two concurrent creations do not pick the same
-- "least recently assigned" member.
-- +goose StatementBegin
CREATE FUNCTION case_route() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ib case_inboxes%ROWTYPE;
  mins integer;
  pick uuid;
BEGIN
  SELECT * INTO ib FROM case_inboxes i
  WHERE i.tenant_id = NEW.tenant_id AND (NEW.type = ANY (i.case_types) OR i.case_types = '{}')
  ORDER BY (i.case_types = '{}'), i.created_at, i.id LIMIT 1;
  IF NOT FOUND THEN
    IF NEW.due_at IS NULL THEN
      NEW.due_at := NEW.created_at + make_interval(mins => CASE NEW.priority
        WHEN 'CRITICAL' THEN 240 WHEN 'HIGH' THEN 1440 WHEN 'MEDIUM' THEN 4320 ELSE 10080 END);
    END IF;
    RETURN NEW;
  END IF;
  NEW.inbox_id := ib.id;
  mins := CASE NEW.priority WHEN 'CRITICAL' THEN ib.sla_critical_minutes WHEN 'HIGH' THEN ib.sla_high_minutes
    WHEN 'MEDIUM' THEN ib.sla_medium_minutes ELSE ib.sla_low_minutes END;
  IF NEW.due_at IS NULL THEN
    NEW.due_at := NEW.created_at + make_interval(mins => mins);
  END IF;
  IF NEW.assigned_to IS NOT NULL OR ib.assignment = 'MANUAL' THEN
    RETURN NEW;
  END IF;
  PERFORM 1 FROM case_inboxes WHERE id = ib.id FOR UPDATE;
  IF ib.assignment = 'ROUND_ROBIN' THEN
    SELECT m.user_id INTO pick FROM case_inbox_members m JOIN users u ON u.id = m.user_id AND u.tenant_id = m.tenant_id
    WHERE m.inbox_id = ib.id AND u.is_active
    ORDER BY m.last_assigned_at NULLS FIRST, m.user_id LIMIT 1;
  ELSE
    SELECT m.user_id INTO pick FROM case_inbox_members m JOIN users u ON u.id = m.user_id AND u.tenant_id = m.tenant_id
    WHERE m.inbox_id = ib.id AND u.is_active
    ORDER BY (SELECT count(*) FROM cases c WHERE c.tenant_id = m.tenant_id AND c.assigned_to = m.user_id
                AND c.status NOT IN ('RESOLVED_TRUE_POSITIVE', 'RESOLVED_FALSE_POSITIVE', 'CLOSED')),
      m.last_assigned_at NULLS FIRST, m.user_id LIMIT 1;
  END IF;
  IF pick IS NOT NULL THEN
    NEW.assigned_to := pick;
    UPDATE case_inbox_members SET last_assigned_at = clock_timestamp() WHERE inbox_id = ib.id AND user_id = pick;
  END IF;
  RETURN NEW;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER cases_route BEFORE INSERT ON cases FOR EACH ROW EXECUTE FUNCTION case_route();

-- case_route_event writes the ASSIGNED timeline event of an automatic assignment. It is deferred
-- to the end of the creating transaction so that it follows the case's CASE_CREATED event (the
-- timeline is in insertion order); a case is created unassigned otherwise (docs/reference/specification.md 4.2),
-- so an assignee at insert is the inbox's.
-- +goose StatementBegin
CREATE FUNCTION case_route_event() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  how text;
  inbox text;
  was text := current_setting('app.tenant_id', true);
BEGIN
  -- At commit the session's tenant is the last one the transaction set (the screening commit
  -- writes several tenants' cases in one transaction): act as the case's tenant, then restore.
  PERFORM set_config('app.tenant_id', NEW.tenant_id::text, true);
  SELECT i.assignment, i.name INTO how, inbox FROM case_inboxes i WHERE i.id = NEW.inbox_id;
  INSERT INTO case_events (id, tenant_id, case_id, event_type, actor_id, description, previous_value, new_value,
    metadata, created_at)
  VALUES ('cevt_' || replace(gen_random_uuid()::text, '-', ''), NEW.tenant_id, NEW.id, 'ASSIGNED', NULL,
    'Case assigned by the ' || inbox || ' inbox (' || lower(replace(how, '_', ' ')) || ')', NULL,
    NEW.assigned_to::text, jsonb_build_object('inboxId', NEW.inbox_id, 'assignment', how), NEW.created_at);
  PERFORM set_config('app.tenant_id', coalesce(was, ''), true);
  RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE CONSTRAINT TRIGGER cases_route_event AFTER INSERT ON cases DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.assigned_to IS NOT NULL AND NEW.inbox_id IS NOT NULL) EXECUTE FUNCTION case_route_event();

-- +goose Down
DROP TRIGGER cases_route_event ON cases;
DROP TRIGGER cases_route ON cases;
DROP FUNCTION case_route_event();
DROP FUNCTION case_route();
DROP INDEX cases_tenant_inbox_due_idx;
DROP INDEX cases_tenant_open_assignee_idx;
DROP INDEX cases_tenant_due_idx;
DROP INDEX cases_tenant_status_due_idx;
ALTER TABLE cases DROP COLUMN due_at;
ALTER TABLE cases DROP COLUMN inbox_id;
DROP TABLE case_saved_views;
DROP TABLE case_inbox_members;
DROP TABLE case_inboxes;
