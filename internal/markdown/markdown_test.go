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

func TestRenderTaskListCheckboxes(t *testing.T) {
	t.Parallel()
	html, err := markdown.New().Render([]byte("- [ ] open\n- [x] done\n- plain\n\n```\n- [ ] in code\n```\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<li><input disabled="" type="checkbox"> open</li>`,
		`<li><input checked="" disabled="" type="checkbox"> done</li>`,
		"<li>plain</li>",
		"- [ ] in code",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("rendered HTML lacks %q: %s", want, html)
		}
	}
	if n := strings.Count(html, "<input"); n != 2 {
		t.Errorf("rendered HTML has %d inputs, want the 2 task checkboxes: %s", n, html)
	}
}

func TestRenderDropsOtherInputs(t *testing.T) {
	t.Parallel()
	html, err := markdown.New().Render([]byte("<input type=\"text\" disabled>\n\nx <input type=checkbox checked onclick=\"alert(1)\"> <form><input name=a></form>\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"<input", "<form", "onclick"} {
		if strings.Contains(html, bad) {
			t.Errorf("rendered HTML keeps %q: %s", bad, html)
		}
	}
}
