package applicationstore_test

import (
	"testing"

	"github.com/complyd/complyd/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }
