package runner

import (
	"testing"
)

func TestParseLabel(t *testing.T) {
	cases := []struct {
		in       string
		want     Label
		platform string
	}{
		{"self-hosted:host", Label{Name: "self-hosted", Scheme: "host"}, "-self-hosted"},
		{"linux", Label{Name: "linux", Scheme: "host"}, "-self-hosted"},
		{"ubuntu-latest:docker://node:20", Label{Name: "ubuntu-latest", Scheme: "docker", Arg: "//node:20"}, "node:20"},
		{" x:docker://docker.gitea.com/runner-images:ubuntu-latest ", Label{Name: "x", Scheme: "docker", Arg: "//docker.gitea.com/runner-images:ubuntu-latest"}, "docker.gitea.com/runner-images:ubuntu-latest"},
	}
	for _, c := range cases {
		got, err := ParseLabel(c.in)
		if err != nil {
			t.Fatalf("ParseLabel(%q): %v", c.in, err)
		}
		if got != c.want {
			t.Errorf("ParseLabel(%q) = %+v, want %+v", c.in, got, c.want)
		}
		if p := got.Platform(); p != c.platform {
			t.Errorf("%q platform = %q, want %q", c.in, p, c.platform)
		}
		if again, err := ParseLabel(got.String()); err != nil || again != got {
			t.Errorf("%q: String() %q reads back as %+v, %v", c.in, got.String(), again, err)
		}
	}
}

func TestParseLabelRefuses(t *testing.T) {
	for _, in := range []string{"", ":host", "a:vm", "a:docker", "a:docker://", "a:host:extra"} {
		if l, err := ParseLabel(in); err == nil {
			t.Errorf("ParseLabel(%q) = %+v, want an error", in, l)
		}
	}
	if _, err := ParseLabels([]string{"a:host", "a:docker://node:20"}); err == nil {
		t.Error("ParseLabels accepted a name given twice")
	}
}

func TestPickPlatform(t *testing.T) {
	ls, err := ParseLabels([]string{"self-hosted:host", "ubuntu-latest:docker://node:20"})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		runsOn []string
		want   string
	}{
		{[]string{"ubuntu-latest"}, "node:20"},
		{[]string{"self-hosted"}, "-self-hosted"},
		{[]string{"windows", "ubuntu-latest"}, "node:20"},
		{[]string{"something-else"}, "-self-hosted"}, // the first label's platform
		{nil, "-self-hosted"},
	}
	for _, c := range cases {
		if got := pickPlatform(ls, c.runsOn); got != c.want {
			t.Errorf("pickPlatform(%v) = %q, want %q", c.runsOn, got, c.want)
		}
	}
}
