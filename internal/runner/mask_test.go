package runner

import "testing"

func TestMasker(t *testing.T) {
	m := newMasker("s3cret", "", "  ", "s3cret-longer", "line1\nline2")
	cases := map[string]string{
		"value s3cret here":        "value *** here",
		"s3cret-longer":            "***",
		"a s3crets3cret b":         "a ****** b",
		"first line1 then line2":   "first *** then ***",
		"nothing to hide":          "nothing to hide",
		"   spaces are not masked": "   spaces are not masked",
	}
	for in, want := range cases {
		if got := m.mask(in); got != want {
			t.Errorf("mask(%q) = %q, want %q", in, got, want)
		}
	}
	m.add("later")
	if got := m.mask("added later"); got != "added ***" {
		t.Errorf("after add: %q", got)
	}
	if got := newMasker().mask("plain"); got != "plain" {
		t.Errorf("empty masker changed %q", got)
	}
}
