package connectapi

import (
	"context"

	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/complyd/complyd/internal/cases"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/tenancy"
)

// PeopleLookup resolves user ids to the tenant's users in one tenant-scoped query
// (postgres.CaseStore.People). An id the tenant does not have is absent from the answer.
type PeopleLookup interface {
	People(ctx context.Context, tenantID tenancy.TenantID, ids []string) (map[string]cases.Person, error)
}

// nameBook is the names of a set of user ids, looked up once for a whole answer (no query per
// row). of gives "" for an id that is not one of the tenant's users (a deleted user, an API key,
// the system): the dashboard shows "Unknown user", never the id.
type nameBook map[string]string

func lookupNames(ctx context.Context, people PeopleLookup, tenantID tenancy.TenantID, ids []string) (nameBook, error) {
	seen := map[string]bool{}
	uniq := make([]string, 0, len(ids))
	for _, id := range ids {
		if id != "" && !seen[id] {
			seen[id] = true
			uniq = append(uniq, id)
		}
	}
	book := nameBook{}
	if len(uniq) == 0 || people == nil {
		return book, nil
	}
	found, err := people.People(ctx, tenantID, uniq)
	if err != nil {
		return nil, err
	}
	for id, p := range found {
		book[id] = personName(p)
	}
	return book, nil
}

func (b nameBook) of(id string) string { return b[id] }

// ofValue names an optional id (a StringValue that may be null).
func (b nameBook) ofValue(v *wrapperspb.StringValue) string { return b[v.GetValue()] }

// nameInterdictions fills the requester's, confirmer's and lift officers' names of every
// interdiction in one query.
func nameInterdictions(ctx context.Context, people PeopleLookup, tenantID tenancy.TenantID, ins []*complydv1.Interdiction) error {
	ids := []string{}
	for _, in := range ins {
		ids = append(ids, in.RequestedBy, in.GetConfirmedBy().GetValue(), in.GetLiftRequestedBy().GetValue(), in.GetLiftedBy().GetValue())
	}
	book, err := lookupNames(ctx, people, tenantID, ids)
	if err != nil {
		return err
	}
	for _, in := range ins {
		in.RequestedByName = book.of(in.RequestedBy)
		in.ConfirmedByName = book.ofValue(in.ConfirmedBy)
		in.LiftRequestedByName = book.ofValue(in.LiftRequestedBy)
		in.LiftedByName = book.ofValue(in.LiftedBy)
	}
	return nil
}

// nameReport fills a report's preparer, submitter, approver and filer and its timeline's actors
// in one query.
func nameReport(ctx context.Context, people PeopleLookup, tenantID tenancy.TenantID, r *complydv1.Report) error {
	ids := []string{r.GetPreparedBy().GetValue(), r.GetSubmittedBy().GetValue(), r.GetApprovedBy().GetValue(), r.GetFiledBy().GetValue()}
	for _, e := range r.Timeline {
		ids = append(ids, e.GetActorId().GetValue())
	}
	book, err := lookupNames(ctx, people, tenantID, ids)
	if err != nil {
		return err
	}
	r.PreparedByName, r.SubmittedByName = book.ofValue(r.PreparedBy), book.ofValue(r.SubmittedBy)
	r.ApprovedByName, r.FiledByName = book.ofValue(r.ApprovedBy), book.ofValue(r.FiledBy)
	for _, e := range r.Timeline {
		e.ActorName = book.ofValue(e.ActorId)
	}
	return nil
}
