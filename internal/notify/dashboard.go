package notify

import (
	"time"

	"github.com/complyd/complyd/internal/ids"
	"github.com/complyd/complyd/internal/tenancy"
)

// Notification is one dashboard notification of one user (GET /notifications). It is written
// in the transaction that causes it, next to the email of the same news.
type Notification struct {
	ID        string // ntf_<id>
	TenantID  tenancy.TenantID
	UserID    string
	Kind      string // KindCaseCreated
	Title     string
	Message   string
	CaseID    *string
	ReadAt    *time.Time
	CreatedAt time.Time
}

// Notification kinds.
const (
	// KindCaseCreated: screening created a case automatically (docs/reference/specification.md part 1).
	KindCaseCreated = "CASE_CREATED"
)

// NotificationPageDefault and NotificationPageMax are the paging of GET /notifications.
const (
	NotificationPageDefault = 20
	NotificationPageMax     = 100
)

// NewNotificationID returns "ntf_" and 26 characters that sort by creation time (ids.New).
func NewNotificationID() string { return ids.New("ntf_") }
