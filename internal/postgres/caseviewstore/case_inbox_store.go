package caseviewstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/tenancy"
)

// CaseInboxStore implements cases.InboxStore over case_inboxes, case_inbox_members and
// case_saved_views (migration 0042).
type CaseInboxStore struct{ db *postgres.DB }

// NewCaseInboxStore returns the store over db.
func NewCaseInboxStore(db *postgres.DB) *CaseInboxStore { return &CaseInboxStore{db: db} }

var _ cases.InboxStore = (*CaseInboxStore)(nil)

const inboxColumns = `id::text, name, case_types, assignment, sla_critical_minutes, sla_high_minutes, sla_medium_minutes,
	sla_low_minutes, created_at, updated_at`

func scanInbox(row pgx.Row, tenantID tenancy.TenantID) (cases.Inbox, error) {
	in := cases.Inbox{TenantID: tenantID}
	err := row.Scan(&in.ID, &in.Name, &in.CaseTypes, &in.Assignment, &in.SLA.Critical, &in.SLA.High, &in.SLA.Medium,
		&in.SLA.Low, &in.CreatedAt, &in.UpdatedAt)
	return in, err
}

// setMembers replaces the inbox's members; every one must be an active user of the tenant.
func setMembers(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, inboxID string, ids []string) error {
	if _, err := tx.Exec(ctx, `delete from case_inbox_members where tenant_id = $1 and inbox_id = $2`, string(tenantID), inboxID); err != nil {
		return fmt.Errorf("clear members: %w", err)
	}
	for _, id := range ids {
		if !postgres.IsUUID(id) {
			return apperr.Invalid("memberIds", "must be active users of the institution")
		}
		tag, err := tx.Exec(ctx, `insert into case_inbox_members (tenant_id, inbox_id, user_id)
			select $1, $2, u.id from users u where u.tenant_id = $1 and u.id = $3::uuid and u.is_active`, string(tenantID), inboxID, id)
		if err != nil {
			return fmt.Errorf("add member: %w", postgres.MapErr(err, "member"))
		}
		if tag.RowsAffected() == 0 {
			return apperr.Invalid("memberIds", "must be active users of the institution")
		}
	}
	return nil
}

// CreateInbox implements cases.InboxStore.
func (s *CaseInboxStore) CreateInbox(ctx context.Context, in cases.Inbox, memberIDs []string) (*cases.Inbox, error) {
	in.ID = uuid.NewString()
	err := s.db.InTenant(ctx, in.TenantID, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `insert into case_inboxes (id, tenant_id, name, case_types, assignment, sla_critical_minutes,
			sla_high_minutes, sla_medium_minutes, sla_low_minutes, created_at, updated_at)
			values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)`, in.ID, string(in.TenantID), in.Name, in.CaseTypes, in.Assignment,
			in.SLA.Critical, in.SLA.High, in.SLA.Medium, in.SLA.Low, in.CreatedAt)
		if err != nil {
			return postgres.MapErr(err, "inbox")
		}
		return setMembers(ctx, tx, in.TenantID, in.ID, memberIDs)
	})
	if err != nil {
		return nil, err
	}
	return s.inbox(ctx, in.TenantID, in.ID, in.CreatedAt)
}

func (s *CaseInboxStore) inbox(ctx context.Context, tenantID tenancy.TenantID, id string, now time.Time) (*cases.Inbox, error) {
	all, err := s.Inboxes(ctx, tenantID, now)
	if err != nil {
		return nil, err
	}
	for i := range all {
		if all[i].ID == id {
			return &all[i], nil
		}
	}
	return nil, apperr.NotFoundf("inbox not found")
}

// UpdateInbox implements cases.InboxStore.
func (s *CaseInboxStore) UpdateInbox(ctx context.Context, tenantID tenancy.TenantID, id string, fn func(*cases.Inbox) (cases.InboxParams, error)) (*cases.Inbox, error) {
	if !postgres.IsUUID(id) {
		return nil, apperr.NotFoundf("inbox not found")
	}
	var now time.Time
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		in, err := scanInbox(tx.QueryRow(ctx, `select `+inboxColumns+` from case_inboxes where tenant_id = $1 and id = $2::uuid for update`,
			string(tenantID), id), tenantID)
		if err != nil {
			return postgres.MapErr(err, "inbox")
		}
		p, err := fn(&in)
		if err != nil {
			return err
		}
		now = in.UpdatedAt
		_, err = tx.Exec(ctx, `update case_inboxes set name = $3, case_types = $4, assignment = $5, sla_critical_minutes = $6,
			sla_high_minutes = $7, sla_medium_minutes = $8, sla_low_minutes = $9, updated_at = $10 where tenant_id = $1 and id = $2::uuid`,
			string(tenantID), id, in.Name, in.CaseTypes, in.Assignment, in.SLA.Critical, in.SLA.High, in.SLA.Medium, in.SLA.Low, in.UpdatedAt)
		if err != nil {
			return postgres.MapErr(err, "inbox")
		}
		if p.SetMembers {
			return setMembers(ctx, tx, tenantID, id, p.MemberIDs)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.inbox(ctx, tenantID, id, now)
}

// Name implements cases.InboxStore.
func (s *CaseInboxStore) Name(ctx context.Context, tenantID tenancy.TenantID, id string) (string, error) {
	if !postgres.IsUUID(id) {
		return "", nil
	}
	var name string
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `select name from case_inboxes where tenant_id = $1 and id = $2::uuid`, string(tenantID), id).Scan(&name)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		return err
	})
	return name, err
}

// Inboxes implements cases.InboxStore: by name, with members and the open and breached counts.
func (s *CaseInboxStore) Inboxes(ctx context.Context, tenantID tenancy.TenantID, now time.Time) ([]cases.Inbox, error) {
	out := []cases.Inbox{}
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `select `+inboxColumns+`,
			(select count(*) from cases c where c.tenant_id = i.tenant_id and c.inbox_id = i.id
				and c.status not in ('RESOLVED_TRUE_POSITIVE', 'RESOLVED_FALSE_POSITIVE', 'CLOSED')),
			(select count(*) from cases c where c.tenant_id = i.tenant_id and c.inbox_id = i.id and c.due_at < $2
				and c.status not in ('RESOLVED_TRUE_POSITIVE', 'RESOLVED_FALSE_POSITIVE', 'CLOSED'))
			from case_inboxes i where i.tenant_id = $1 order by name`, string(tenantID), now)
		if err != nil {
			return fmt.Errorf("list inboxes: %w", err)
		}
		for rows.Next() {
			in := cases.Inbox{TenantID: tenantID}
			if err := rows.Scan(&in.ID, &in.Name, &in.CaseTypes, &in.Assignment, &in.SLA.Critical, &in.SLA.High, &in.SLA.Medium,
				&in.SLA.Low, &in.CreatedAt, &in.UpdatedAt, &in.OpenCases, &in.Breached); err != nil {
				rows.Close()
				return fmt.Errorf("scan inbox: %w", err)
			}
			out = append(out, in)
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("list inboxes: %w", err)
		}
		rows, err = tx.Query(ctx, `select m.inbox_id::text, u.id::text, u.email, u.first_name, u.last_name from case_inbox_members m
			join users u on u.tenant_id = m.tenant_id and u.id = m.user_id where m.tenant_id = $1 order by u.first_name, u.last_name, u.id`,
			string(tenantID))
		if err != nil {
			return fmt.Errorf("list members: %w", err)
		}
		members := map[string][]cases.Person{}
		for rows.Next() {
			var inbox string
			var p cases.Person
			if err := rows.Scan(&inbox, &p.ID, &p.Email, &p.FirstName, &p.LastName); err != nil {
				rows.Close()
				return fmt.Errorf("scan member: %w", err)
			}
			members[inbox] = append(members[inbox], p)
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("list members: %w", err)
		}
		for i := range out {
			out[i].Members = members[out[i].ID]
		}
		return nil
	})
	return out, err
}

// Assignable implements cases.InboxStore: the active officers and analysts (the roles that may
// work a case), or an inbox's active members.
func (s *CaseInboxStore) Assignable(ctx context.Context, tenantID tenancy.TenantID, inboxID string) ([]cases.Person, error) {
	if inboxID != "" && !postgres.IsUUID(inboxID) {
		return nil, apperr.NotFoundf("inbox not found")
	}
	out := []cases.Person{}
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		q := `select u.id::text, u.email, u.first_name, u.last_name from users u where u.tenant_id = $1 and u.is_active
			and u.role in ('BANK_ADMIN', 'COMPLIANCE_OFFICER', 'ANALYST') order by u.first_name, u.last_name, u.id`
		args := []any{string(tenantID)}
		if inboxID != "" {
			var ok bool
			if err := tx.QueryRow(ctx, `select exists (select 1 from case_inboxes where tenant_id = $1 and id = $2::uuid)`,
				string(tenantID), inboxID).Scan(&ok); err != nil {
				return fmt.Errorf("find inbox: %w", err)
			}
			if !ok {
				return apperr.NotFoundf("inbox not found")
			}
			q = `select u.id::text, u.email, u.first_name, u.last_name from case_inbox_members m
				join users u on u.tenant_id = m.tenant_id and u.id = m.user_id
				where m.tenant_id = $1 and m.inbox_id = $2::uuid and u.is_active order by u.first_name, u.last_name, u.id`
			args = append(args, inboxID)
		}
		rows, err := tx.Query(ctx, q, args...)
		if err != nil {
			return fmt.Errorf("assignable users: %w", err)
		}
		for rows.Next() {
			var p cases.Person
			if err := rows.Scan(&p.ID, &p.Email, &p.FirstName, &p.LastName); err != nil {
				rows.Close()
				return fmt.Errorf("scan user: %w", err)
			}
			out = append(out, p)
		}
		return rows.Err()
	})
	return out, err
}

// CreateView implements cases.InboxStore.
func (s *CaseInboxStore) CreateView(ctx context.Context, v cases.SavedView) (*cases.SavedView, error) {
	v.ID = uuid.NewString()
	f, err := json.Marshal(v.Filters)
	if err != nil {
		return nil, fmt.Errorf("encode filters: %w", err)
	}
	err = s.db.InTenant(ctx, v.TenantID, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `insert into case_saved_views (id, tenant_id, user_id, name, filters, created_at)
			values ($1, $2, $3, $4, $5, $6)`, v.ID, string(v.TenantID), v.UserID, v.Name, f, v.CreatedAt)
		return postgres.MapErr(err, "view")
	})
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// Views implements cases.InboxStore.
func (s *CaseInboxStore) Views(ctx context.Context, tenantID tenancy.TenantID, userID string) ([]cases.SavedView, error) {
	out := []cases.SavedView{}
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `select id::text, name, filters, created_at from case_saved_views
			where tenant_id = $1 and user_id = $2 order by name`, string(tenantID), userID)
		if err != nil {
			return fmt.Errorf("list views: %w", err)
		}
		for rows.Next() {
			v := cases.SavedView{TenantID: tenantID, UserID: userID}
			var f []byte
			if err := rows.Scan(&v.ID, &v.Name, &f, &v.CreatedAt); err != nil {
				rows.Close()
				return fmt.Errorf("scan view: %w", err)
			}
			if err := json.Unmarshal(f, &v.Filters); err != nil {
				rows.Close()
				return fmt.Errorf("decode view: %w", err)
			}
			out = append(out, v)
		}
		return rows.Err()
	})
	return out, err
}

// DeleteView implements cases.InboxStore.
func (s *CaseInboxStore) DeleteView(ctx context.Context, tenantID tenancy.TenantID, userID, id string) error {
	if !postgres.IsUUID(id) {
		return apperr.NotFoundf("view not found")
	}
	return s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `delete from case_saved_views where tenant_id = $1 and user_id = $2 and id = $3::uuid`,
			string(tenantID), userID, id)
		if err != nil {
			return fmt.Errorf("delete view: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return apperr.NotFoundf("view not found")
		}
		return nil
	})
}
