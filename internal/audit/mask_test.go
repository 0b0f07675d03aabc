package audit_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/audit"
)

func TestMask(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, tail, email string }{
		{"", "", ""},
		{"1234", "****", "***"},
		{"22234567801", "*******7801", "***"},
		{"+2348031234567", "**********4567", "***"},
		{"ada.obi@example.com", "***************.com", "a***@example.com"},
		{"\"a@b\"@mail.example.org", "******************.org", "\"***@mail.example.org"},
		{"émile@example.fr", "************e.fr", "é***@example.fr"},
		{"@example.com", "********.com", "***"},
		{"ada@", "****", "***"},
	} {
		require.Equal(t, tc.tail, audit.MaskTail(tc.in), "MaskTail(%q)", tc.in)
		require.Equal(t, tc.email, audit.MaskEmail(tc.in), "MaskEmail(%q)", tc.in)
	}
}
