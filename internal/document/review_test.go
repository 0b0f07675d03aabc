package document

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
)

// TestApplyReview covers the review state machine: every status × decision × four-eyes setting,
// and who may confirm a four-eyes verification.
func TestApplyReview(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	type want struct {
		status, action string
		code           apperr.Code
	}
	cases := []struct {
		name     string
		from     string
		r        Review
		want     want
		firstBy  string
		reviewBy string
	}{
		{"verify, one officer", StatusPendingReview, Review{Decision: DecisionVerify, Reviewer: "u2"},
			want{StatusVerified, "document_verified", ""}, "", "u2"},
		{"verify by the uploader without four eyes", StatusPendingReview, Review{Decision: DecisionVerify, Reviewer: "u1"},
			want{StatusVerified, "document_verified", ""}, "", "u1"},
		{"verify, four eyes: a first review", StatusPendingReview, Review{Decision: DecisionVerify, Reviewer: "u2", FourEyes: true},
			want{StatusPendingSecondReview, "document_verification_proposed", ""}, "u2", ""},
		{"confirm by a third person", StatusPendingSecondReview, Review{Decision: DecisionVerify, Reviewer: "u3", FourEyes: true},
			want{StatusVerified, "document_verified", ""}, "u9", "u3"},
		{"confirm after four eyes was switched off", StatusPendingSecondReview, Review{Decision: DecisionVerify, Reviewer: "u3"},
			want{StatusVerified, "document_verified", ""}, "u9", "u3"},
		{"confirm by the first reviewer", StatusPendingSecondReview, Review{Decision: DecisionVerify, Reviewer: "u9", FourEyes: true},
			want{StatusPendingSecondReview, "", apperr.Forbidden}, "u9", ""},
		{"confirm by the uploader", StatusPendingSecondReview, Review{Decision: DecisionVerify, Reviewer: "u1", FourEyes: true},
			want{StatusPendingSecondReview, "", apperr.Forbidden}, "u9", ""},
		{"confirm by the first reviewer, four eyes off since", StatusPendingSecondReview, Review{Decision: DecisionVerify, Reviewer: "u9"},
			want{StatusPendingSecondReview, "", apperr.Forbidden}, "u9", ""},
		{"reject", StatusPendingReview, Review{Decision: DecisionReject, Reason: " blurred ", Reviewer: "u2"},
			want{StatusRejected, "document_rejected", ""}, "", "u2"},
		{"reject during a four-eyes review, by the first reviewer", StatusPendingSecondReview,
			Review{Decision: DecisionReject, Reason: "expired", Reviewer: "u9", FourEyes: true},
			want{StatusRejected, "document_rejected", ""}, "u9", "u9"},
		{"reject without a reason", StatusPendingReview, Review{Decision: DecisionReject, Reason: "  ", Reviewer: "u2"},
			want{StatusPendingReview, "", apperr.Validation}, "", ""},
		{"unknown decision", StatusPendingReview, Review{Decision: "APPROVE", Reviewer: "u2"},
			want{StatusPendingReview, "", apperr.Validation}, "", ""},
		{"verified is final", StatusVerified, Review{Decision: DecisionReject, Reason: "x", Reviewer: "u2"},
			want{StatusVerified, "", apperr.InvalidStatusTransition}, "", ""},
		{"rejected is final", StatusRejected, Review{Decision: DecisionVerify, Reviewer: "u2"},
			want{StatusRejected, "", apperr.InvalidStatusTransition}, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := Document{ID: "doc_1", UploadedBy: "u1", VerificationStatus: c.from}
			if c.from == StatusPendingSecondReview {
				d.FirstReviewedBy = "u9"
			}
			c.r.At = at
			action, err := d.ApplyReview(c.r)
			require.Equal(t, c.want.status, d.VerificationStatus)
			if c.want.code != "" {
				var ae *apperr.Error
				require.ErrorAs(t, err, &ae)
				require.Equal(t, c.want.code, ae.Code)
				return
			}
			require.NoError(t, err)
			require.Equal(t, c.want.action, action)
			require.Equal(t, c.firstBy, d.FirstReviewedBy)
			require.Equal(t, c.reviewBy, d.ReviewedBy)
			require.Equal(t, d.VerificationStatus == StatusVerified, d.CountsForTier())
			if c.r.Decision == DecisionReject {
				require.Equal(t, strings.TrimSpace(c.r.Reason), d.RejectionReason, "kept trimmed")
				require.Equal(t, &at, d.ReviewedAt)
			}
		})
	}
}
