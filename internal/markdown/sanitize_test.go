package markdown

import "testing"

// goldmark omits raw HTML, so the sanitizer only ever sees the inputs it
// writes for task lists; this checks the sanitizer alone keeps no others.
func TestSanitizeKeepsOnlyTaskCheckboxes(t *testing.T) {
	t.Parallel()
	r := New()
	for in, want := range map[string]string{
		`<input disabled="" type="checkbox">`:                          `<input disabled="" type="checkbox">`,
		`<input checked="" disabled="" type="checkbox">`:               `<input checked="" disabled="" type="checkbox">`,
		`<input checked="" disabled="" type="checkbox" onclick="x()">`: `<input checked="" disabled="" type="checkbox">`,
		`<input type="checkbox">`:                                      ``,
		`<input disabled="" type="text">`:                              ``,
		`<input disabled="">`:                                          ``,
		`<input disabled="" type="checkbox" name="a" value="b">`:       `<input disabled="" type="checkbox">`,
		`<input disabled="yes" type="checkbox">`:                       ``,
	} {
		if got := r.sanitize(in); got != want {
			t.Errorf("sanitize(%s) = %q, want %q", in, got, want)
		}
	}
}
