package markdown_test

import (
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/markdown"
)

func TestRenderSanitizes(t *testing.T) {
	t.Parallel()
	html, err := markdown.New().Render([]byte("# Title\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1))\n\n| a |\n|---|\n| b |\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"<script", "javascript:"} {
		if strings.Contains(html, bad) {
			t.Errorf("rendered HTML keeps %q: %s", bad, html)
		}
	}
	for _, want := range []string{`<h1 id="title">Title</h1>`, "<table>"} {
		if !strings.Contains(html, want) {
			t.Errorf("rendered HTML lacks %q: %s", want, html)
		}
	}
}
