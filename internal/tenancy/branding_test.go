package tenancy

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestBrandingPatchValidate(t *testing.T) {
	t.Parallel()
	s := func(v string) *string { return &v }
	for _, tc := range []struct {
		name  string
		patch BrandingPatch
		ok    bool
	}{
		{"empty patch", BrandingPatch{}, true},
		{"https logo", BrandingPatch{LogoURL: s("https://cdn.example.com/logo.png")}, true},
		{"logo removed", BrandingPatch{LogoURL: s("")}, true},
		{"http logo", BrandingPatch{LogoURL: s("http://cdn.example.com/logo.png")}, false},
		{"javascript logo", BrandingPatch{LogoURL: s("javascript:alert(1)")}, false},
		{"no host", BrandingPatch{LogoURL: s("https:///logo.png")}, false},
		{"colour", BrandingPatch{PrimaryColor: s("#0a5FfF")}, true},
		{"short colour", BrandingPatch{PrimaryColor: s("#fff")}, false},
		{"named colour", BrandingPatch{PrimaryColor: s("red")}, false},
		{"zone", BrandingPatch{TimeZone: s("Europe/London")}, true},
		{"utc", BrandingPatch{TimeZone: s("UTC")}, true},
		{"unknown zone", BrandingPatch{TimeZone: s("Africa/Atlantis")}, false},
		{"local zone", BrandingPatch{TimeZone: s("Local")}, false},
		{"empty zone", BrandingPatch{TimeZone: s("")}, false},
	} {
		err := tc.patch.Validate()
		if tc.ok {
			require.NoError(t, err, tc.name)
		} else {
			require.Error(t, err, tc.name)
		}
	}
}
