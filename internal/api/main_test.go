package api_test

import (
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
)

// TestMain lets the test binary run git's hooks for the forge tests'
// pushes (see forgetest.Main).
func TestMain(m *testing.M) { forgetest.Main(m) }
