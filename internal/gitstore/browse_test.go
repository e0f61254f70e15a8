package gitstore_test

import (
	"errors"
	"testing"

	"github.com/dforge/dforge/internal/gitstore"
)

func TestCleanPathRefusesTraversal(t *testing.T) {
	for in, want := range map[string]string{"": "", "a": "a", "a/b/": "a/b", "a//b": "a/b", "dir/file.go": "dir/file.go", "ü/ß": "ü/ß"} {
		if got, err := gitstore.CleanPath(in); err != nil || got != want {
			t.Errorf("CleanPath(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"..", "../x", "a/../../b", "./a", "a/./b", "/etc/passwd", "a\x00b", "a\\..\\b", "a\nb", "\xff"} {
		if _, err := gitstore.CleanPath(in); !errors.Is(err, gitstore.ErrInvalidPath) {
			t.Errorf("CleanPath(%q) = %v, want ErrInvalidPath", in, err)
		}
	}
}
