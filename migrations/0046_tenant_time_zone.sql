-- +goose Up
-- The tenant's time zone (issue 50 point 4): the dashboard shows every time in it, with its
-- name. Nigeria's by default, the zone reports already use for their day.
ALTER TABLE tenants ADD COLUMN time_zone text NOT NULL DEFAULT 'Africa/Lagos'
    CHECK (length(time_zone) BETWEEN 1 AND 64);

-- +goose Down
ALTER TABLE tenants DROP COLUMN time_zone;
