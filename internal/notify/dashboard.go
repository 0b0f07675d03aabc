package notify

import (
	"crypto/rand"
	"encoding/base32"
	"strings"
	"time"

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
	// KindCaseCreated: screening created a case automatically (service-spec.md part 1).
	KindCaseCreated = "CASE_CREATED"
)

// NotificationPageDefault and NotificationPageMax are the paging of GET /notifications.
const (
	NotificationPageDefault = 20
	NotificationPageMax     = 100
)

var idEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// NewNotificationID returns "ntf_" and 26 lowercase base32 characters of 128 random bits.
func NewNotificationID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return "ntf_" + strings.ToLower(idEncoding.EncodeToString(b[:]))
}
