package reports

import (
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/ids"
	"github.com/complyd/complyd/internal/tenancy"
)

// Report types. STR is the NFIU's suspicious transaction report (grounds tied to one or more
// transactions); SAR is a suspicious activity report (an activity, no single transaction);
// docs/guide/reports.md "STR and SAR".
const (
	TypeCTR = "CTR"
	TypeSTR = "STR"
	TypeSAR = "SAR"
	TypeFTR = "FTR"
)

// Types lists the report types.
var Types = []string{TypeCTR, TypeSTR, TypeSAR, TypeFTR}

// Statuses.
const (
	StatusDraft           = "DRAFT"
	StatusPendingApproval = "PENDING_APPROVAL"
	StatusApproved        = "APPROVED"
	// StatusFiling: claimed by one filing call and being sent to the filing endpoint; nobody
	// else sends it meanwhile (docs/guide/reports.md "Filing").
	StatusFiling = "FILING"
	// StatusFilingFailed: the endpoint's answer could not be used (a 5xx, a timeout, no or an
	// over-long reference); it is recorded in FilingAnswer and a new file call retries.
	StatusFilingFailed = "FILING_FAILED"
	StatusFiled        = "FILED"
)

// Statuses lists the report statuses.
var Statuses = []string{StatusDraft, StatusPendingApproval, StatusApproved, StatusFiling, StatusFilingFailed, StatusFiled}

// Origins: who drafted the report.
const (
	OriginScreening = "SCREENING"
	OriginCase      = "CASE"
	OriginManual    = "MANUAL"
)

// Filing methods.
const (
	FilingManual = "MANUAL" // uploaded on the goAML web portal; the NFIU's reference is typed in
	FilingHTTP   = "HTTP"   // submitted to the tenant's configured endpoint
)

// Report is one regulatory report (tenant-scoped).
type Report struct {
	ID               string
	TenantID         tenancy.TenantID
	Type             string
	Status           string
	Origin           string
	CustomerAccount  string
	CustomerName     string
	Day              time.Time // the report's day (Lagos), midnight UTC of that date
	CaseID           string
	CorrectsReportID string
	// CorrectsReference is the NFIU's reference of the corrected report (fiu_ref_number).
	CorrectsReference string
	Reason            string
	Action            string
	Narrative         string
	Indicators        []string
	Rules             []string
	DeadlineAt        time.Time
	PreparedBy        string // "" when the screening drafted it
	// Contributors are the users who changed the report's content: drafted it, edited a field
	// or submitted it. None of them may approve or reject it (four eyes, docs/guide/reports.md).
	Contributors    []string
	SubmittedBy     string
	SubmittedAt     *time.Time
	ApprovedBy      string
	ApprovedAt      *time.Time
	RejectionReason string
	FiledBy         string
	FiledAt         *time.Time
	FilingReference string
	FilingMethod    string
	// FilingAttempt numbers the idempotency key <ID>-<attempt> of a filing over HTTP (0 before
	// the first); it grows only when the endpoint refused a key for good (a 4xx).
	FilingAttempt   int
	FilingClaimedAt *time.Time
	// FilingAnswer is what the endpoint said to the last submission, usable or not.
	FilingAnswer   *FilingAnswer
	CreatedAt      time.Time
	UpdatedAt      time.Time
	TransactionIDs []string
}

// Event is one entry of a report's timeline.
type Event struct {
	ID        string
	ReportID  string
	Action    string // CREATED, UPDATED, SUBMITTED, APPROVED, REJECTED, FILED, CORRECTED
	ActorID   string
	Note      string
	CreatedAt time.Time
}

// Transaction is a stored transaction as a report uses it (read from the screening's rows).
type Transaction struct {
	ID                    string
	ExternalID            string
	Type                  string
	Channel               string
	Amount                decimal.Decimal
	Currency              string
	AmountNGN             decimal.Decimal
	SenderAccountNumber   string
	SenderName            string
	SenderBVN             string
	SenderBankCode        string
	ReceiverAccountNumber string
	ReceiverName          string
	ReceiverBankCode      string
	ReceiverCountry       string
	Narration             string
	Timestamp             time.Time
	Rules                 []string
	Hits                  []Hit // the sanctions hits of its screening
}

// Hit is a sanctions match of a transaction's screening: which party matched which list entry,
// and how closely.
type Hit struct {
	Party       string // SENDER or RECEIVER
	List        string
	EntryID     string
	Name        string // the entry's name
	MatchedName string // the party's name as screened
	Score       float64
}

// NewID returns "rpt_" (or prefix) followed by 26 characters that sort by creation time (ids.New).
func NewID(prefix string) string { return ids.New(prefix) }

// Lagos is West Africa Time (UTC+1, no daylight saving): a report's day is the Lagos calendar
// day of its transactions, as the NFIU reads dates.
var Lagos = time.FixedZone("WAT", 3600)

// DayOf returns the Lagos calendar day of t as midnight UTC of that date (the date column).
func DayOf(t time.Time) time.Time {
	y, m, d := t.In(Lagos).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// EndOfDay returns the instant the Lagos day ends: deadlines count from it.
func EndOfDay(day time.Time) time.Time {
	return time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, Lagos).AddDate(0, 0, 1)
}

// ValidType reports whether t is a report type.
func ValidType(t string) bool { return slices.Contains(Types, t) }

// transitions is the status machine (docs/guide/reports.md "Statuses"): a rejection returns the
// report to DRAFT with its reason; FILED is final.
var transitions = map[string][]string{
	StatusDraft:           {StatusPendingApproval},
	StatusPendingApproval: {StatusApproved, StatusDraft},
	StatusApproved:        {StatusFiling, StatusFiled},
	StatusFiling:          {StatusFiled, StatusFilingFailed},
	StatusFilingFailed:    {StatusFiling, StatusFiled},
	StatusFiled:           {},
}

// move changes r's status to to, or answers INVALID_STATUS_TRANSITION with the allowed moves.
func (r *Report) move(to string) error {
	allowed := transitions[r.Status]
	if !slices.Contains(allowed, to) {
		return apperr.Transition(r.Status, to, allowed)
	}
	r.Status = to
	return nil
}

// contributed records that userID changed the report's content (the system, "", is no one).
func (r *Report) contributed(userID string) {
	if userID != "" && !slices.Contains(r.Contributors, userID) {
		r.Contributors = append(r.Contributors, userID)
	}
}

// contributor reports whether userID changed the report's content: a listed contributor, or
// its preparer or submitter (the columns that predate the list).
func (r *Report) contributor(userID string) bool {
	return userID != "" && (slices.Contains(r.Contributors, userID) || userID == r.PreparedBy || userID == r.SubmittedBy)
}
