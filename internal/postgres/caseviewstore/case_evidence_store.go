package caseviewstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/sanctions"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// CaseEvidenceStore implements cases.EvidenceReader: a case's transaction, its rules and hits,
// the list entries of the hits and the sender account's daily activity, in one tenant
// transaction of a few index probes.
type CaseEvidenceStore struct{ db *postgres.DB }

// NewCaseEvidenceStore returns the reader over db.
func NewCaseEvidenceStore(db *postgres.DB) *CaseEvidenceStore { return &CaseEvidenceStore{db: db} }

var _ cases.EvidenceReader = (*CaseEvidenceStore)(nil)

const evidenceTxSQL = `select t.id::text, t.external_id, t.type, t.channel, t.amount::text, t.currency, t.amount_ngn::text,
	coalesce(t.narration, ''), t.sender_name, t.sender_account_number, coalesce(t.sender_bank_code, ''), coalesce(t.sender_bvn, ''),
	coalesce(t.receiver_name, ''), coalesce(t.receiver_account_number, ''), coalesce(t.receiver_bank_code, ''),
	coalesce(t.receiver_bvn, ''), coalesce(t.receiver_country, ''), t.transaction_timestamp, t.outcome, t.risk_level,
	t.aggregate_score::float8, t.engine_verdicts
	from transactions_kept t where t.tenant_id = $1 and t.id = $2::uuid`

// Evidence implements cases.EvidenceReader.
func (s *CaseEvidenceStore) Evidence(ctx context.Context, tenantID tenancy.TenantID, transactionID string, since time.Time) (*cases.Evidence, error) {
	if !postgres.IsUUID(transactionID) {
		return nil, nil
	}
	var out *cases.Evidence
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		var ev cases.Evidence
		t := &ev.Transaction
		t.Sender.Role, t.Receiver.Role = "SENDER", "RECEIVER"
		var engines []byte
		err := tx.QueryRow(ctx, evidenceTxSQL, string(tenantID), transactionID).Scan(&t.ID, &t.ExternalID, &t.Type, &t.Channel,
			&t.Amount, &t.Currency, &t.AmountNGN, &t.Narration, &t.Sender.Name, &t.Sender.Account, &t.Sender.BankCode, &t.Sender.BVN,
			&t.Receiver.Name, &t.Receiver.Account, &t.Receiver.BankCode, &t.Receiver.BVN, &t.Receiver.Country, &t.At, &t.Outcome,
			&t.RiskLevel, &t.Score, &engines)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read transaction: %w", err)
		}
		var verdicts []postgres.EngineJSON
		if err := json.Unmarshal(engines, &verdicts); err != nil {
			return fmt.Errorf("decode verdicts: %w", err)
		}
		var sanctionDetails []string
		for _, v := range verdicts {
			for _, r := range v.Rules {
				ev.Rules = append(ev.Rules, cases.EvidenceRule{Name: r.Name, Category: v.Category, Details: r.Details,
					Outcome: r.Outcome, RiskScore: r.RiskScore})
				if v.Category == screening.CategorySanctions {
					sanctionDetails = append(sanctionDetails, r.Details)
				}
			}
			for _, h := range v.Hits {
				hit := cases.EvidenceHit{Party: h.Party, List: h.List, ListType: h.ListType, EntryID: h.EntryID,
					MatchedName: h.MatchedName, Score: h.Score}
				for _, d := range sanctionDetails {
					if strings.Contains(d, "entry "+h.EntryID+",") {
						if _, why, ok := strings.Cut(d, "): "); ok {
							hit.Explanation = why
						}
					}
				}
				ev.Hits = append(ev.Hits, hit)
			}
		}
		sort.SliceStable(ev.Rules, func(i, j int) bool { return ev.Rules[i].RiskScore > ev.Rules[j].RiskScore })
		for i := range ev.Hits {
			e, err := listEntry(ctx, tx, tenantID, ev.Hits[i])
			if err != nil {
				return err
			}
			ev.Hits[i].Entry = e
		}
		rows, err := tx.Query(ctx, `select bucket, n, sum_ngn::text from account_activity_grains
			where tenant_id = $1 and account = $2 and grain = 'day' and bucket >= $3 order by bucket`,
			string(tenantID), t.Sender.Account, since)
		if err != nil {
			return fmt.Errorf("read activity: %w", err)
		}
		for rows.Next() {
			var d cases.ActivityDay
			if err := rows.Scan(&d.Day, &d.Count, &d.SumNGN); err != nil {
				rows.Close()
				return fmt.Errorf("scan activity: %w", err)
			}
			ev.Activity = append(ev.Activity, d)
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("read activity: %w", err)
		}
		out = &ev
		return nil
	})
	return out, err
}

// listEntry reads the entry of a hit: a global list's current version (with the list's
// publication date), else a tenant watchlist entry; nil when it is no longer loaded.
func listEntry(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, h cases.EvidenceHit) (*cases.ListEntry, error) {
	var raw []byte
	var published *time.Time
	var version int
	err := tx.QueryRow(ctx, `select e.entry, v.published_at, v.version from sanctions_lists l
		join sanctions_list_versions v on v.list = l.name and v.version = l.current_version
		join sanctions_entries e on e.version_id = v.id and e.entry_id = $2
		where l.name = $1`, h.List, h.EntryID).Scan(&raw, &published, &version)
	switch {
	case err == nil:
		var e sanctions.Entry
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, fmt.Errorf("decode entry: %w", err)
		}
		out := &cases.ListEntry{EntryID: e.ID, List: e.List, ListType: string(e.ListType), Name: e.Name,
			EntityType: string(e.EntityType), Remarks: e.Remarks, SourceID: e.SourceID, DatesOfBirth: e.DatesOfBirth,
			Nationalities: e.Nationalities, Programs: e.Programs, PublishedAt: published, Version: version}
		for _, a := range e.Aliases {
			out.Aliases = append(out.Aliases, a.Name)
		}
		return out, nil
	case !errors.Is(err, pgx.ErrNoRows):
		return nil, fmt.Errorf("read list entry: %w", err)
	}
	if !postgres.IsUUID(h.EntryID) {
		return nil, nil
	}
	out := &cases.ListEntry{EntryID: h.EntryID, List: h.List, ListType: h.ListType}
	var dob *time.Time
	var country, ref, entity *string
	var created time.Time
	err = tx.QueryRow(ctx, `select e.name, e.aliases, e.entity_type, e.date_of_birth, e.country, e.reference, e.created_at
		from watchlist_entries e where e.tenant_id = $1 and e.id = $2::uuid`, string(tenantID), h.EntryID).
		Scan(&out.Name, &out.Aliases, &entity, &dob, &country, &ref, &created)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read watchlist entry: %w", err)
	}
	out.EntityType, out.SourceID = postgres.Deref(entity), postgres.Deref(ref)
	if dob != nil {
		out.DatesOfBirth = []string{dob.Format(time.DateOnly)}
	}
	if country != nil && *country != "" {
		out.Nationalities = []string{*country}
	}
	// A tenant's own list is "published" when its entry was added.
	out.PublishedAt = &created
	return out, nil
}
