// Package notify holds outgoing email: messages, templates and the Mailer port. Mail is written
// to the emails outbox in the transaction that causes it and sent by a worker (SendEmailArgs).
//
// notify must not import adapters; it depends only on tenancy.
package notify

import (
	"context"
	"fmt"
	"strings"

	"github.com/complyd/complyd/internal/tenancy"
)

// Email statuses in the outbox.
const (
	StatusQueued = "QUEUED"
	StatusSent   = "SENT"
	StatusLogged = "LOGGED" // no SMTP configured: recorded and logged, not sent
	StatusFailed = "FAILED"
)

// Message is one email.
type Message struct {
	ID       string
	TenantID tenancy.TenantID
	Kind     string
	To       string
	Subject  string
	Text     string
	HTML     string
}

// Outboxed is an email of the outbox and its status there.
type Outboxed struct {
	Message Message
	Status  string
}

// Mailer sends a message. Send returns an error the worker retries.
type Mailer interface {
	Send(ctx context.Context, m Message) error
	// Delivers reports whether Send really sends (SMTP) or only records.
	Delivers() bool
}

// SendEmailArgs is the job that sends outbox emails of one tenant: one (EmailID), or several
// (EmailIDs: the officers' emails of a batch of automatic cases, one job for up to
// EmailsPerJob of them instead of one each). It satisfies River's JobArgs.
type SendEmailArgs struct {
	EmailID  string   `json:"emailId,omitempty"`
	EmailIDs []string `json:"emailIds,omitempty"`
	TenantID string   `json:"tenantId"`
}

// EmailsPerJob bounds the emails one job sends, one after the other, well inside a job's time
// limit even when the mail server is slow.
const EmailsPerJob = 8

// IDs returns the emails the job sends.
func (a SendEmailArgs) IDs() []string {
	if a.EmailID == "" {
		return a.EmailIDs
	}
	return append([]string{a.EmailID}, a.EmailIDs...)
}

// Kind names the job.
func (SendEmailArgs) Kind() string { return "send_email" }

// Welcome is the welcome email sent when a user is created (docs/reference/specification.md 4.1).
func Welcome(tenantName, firstName, email string) Message {
	text := fmt.Sprintf("Hello %s,\n\nAn account was created for you on complyd for %s.\n"+
		"Sign in with this email address (%s) and the password your administrator gave you.\n\n"+
		"If you did not expect this email, contact your compliance administrator.\n", firstName, tenantName, email)
	html := fmt.Sprintf("<p>Hello %s,</p><p>An account was created for you on complyd for <b>%s</b>.</p>"+
		"<p>Sign in with this email address (%s) and the password your administrator gave you.</p>",
		htmlEscape(firstName), htmlEscape(tenantName), htmlEscape(email))
	return Message{Kind: "welcome", To: email, Subject: "Welcome to complyd", Text: text, HTML: html}
}

func htmlEscape(s string) string {
	r := make([]rune, 0, len(s))
	for _, c := range s {
		switch c {
		case '<', '>', '&', '"', '\'':
			r = append(r, []rune(fmt.Sprintf("&#%d;", c))...)
		default:
			r = append(r, c)
		}
	}
	return string(r)
}

// CaseCreated is the email to a compliance officer about a case that screening created
// automatically (docs/reference/specification.md part 1: "Automatically created cases notify compliance officers
// by email and on the dashboard").
func CaseCreated(firstName, email, caseNumber, title, priority, caseType string) Message {
	kind := CaseKind(caseType, priority)
	text := fmt.Sprintf("Hello %s,\n\nScreening opened case %s (%s):\n\n  %s\n\n"+
		"Sign in to complyd to review it.\n", firstName, caseNumber, kind, title)
	html := fmt.Sprintf("<p>Hello %s,</p><p>Screening opened case <b>%s</b> (%s):</p><p>%s</p>"+
		"<p>Sign in to complyd to review it.</p>",
		htmlEscape(firstName), htmlEscape(caseNumber), htmlEscape(kind), htmlEscape(title))
	return Message{Kind: "case_created", To: email, Subject: fmt.Sprintf("New case %s: %s", caseNumber, title), Text: text, HTML: html}
}

// LowBalance is the warning to a BANK_ADMIN that a paid call took the prepaid wallet below the
// tenant's threshold (docs/guide/wallet.md "Low-balance warning"); sent once per crossing.
func LowBalance(firstName, email, balance, threshold string) Message {
	text := fmt.Sprintf("Hello %s,\n\nYour complyd wallet balance is now %s NGN, below your warning threshold of %s NGN.\n"+
		"Paid identity checks and lookups are refused (402) once the balance cannot pay for one.\n"+
		"Top the wallet up to keep verifications running.\n", firstName, balance, threshold)
	html := fmt.Sprintf("<p>Hello %s,</p><p>Your complyd wallet balance is now <b>%s NGN</b>, below your warning threshold of %s NGN.</p>"+
		"<p>Paid identity checks and lookups are refused once the balance cannot pay for one. Top the wallet up to keep verifications running.</p>",
		htmlEscape(firstName), htmlEscape(balance), htmlEscape(threshold))
	return Message{Kind: "low_balance", To: email, Subject: "complyd wallet balance is low: " + balance + " NGN", Text: text, HTML: html}
}

// CaseKind says a case's type and priority as an officer reads them ("sanctions hit, critical
// priority"), not as the API's enum strings: the mail and the dashboard notification use it.
func CaseKind(caseType, priority string) string {
	words := func(v string) string { return strings.ToLower(strings.ReplaceAll(v, "_", " ")) }
	return words(caseType) + ", " + words(priority) + " priority"
}
