package runner

import (
	"fmt"
	"strings"
)

// The schemes a label can map to, as act_runner spells them.
const (
	SchemeHost   = "host"
	SchemeDocker = "docker"
)

// hostPlatform is the platform image that makes Gitea's act run a job on the
// host instead of in a container (RunContext.IsHostEnv).
const hostPlatform = "-self-hosted"

// Label is one runner label, `name:scheme[:arg]`: `self-hosted:host`,
// `ubuntu-latest:docker://node:20`. A label without a scheme is a host label,
// as with act_runner.
type Label struct {
	Name   string
	Scheme string
	Arg    string
}

// ParseLabel reads one label.
func ParseLabel(s string) (Label, error) {
	parts := strings.SplitN(strings.TrimSpace(s), ":", 3)
	l := Label{Name: parts[0], Scheme: SchemeHost}
	if len(parts) > 1 {
		l.Scheme = parts[1]
	}
	if len(parts) > 2 {
		l.Arg = parts[2]
	}
	if l.Name == "" {
		return Label{}, fmt.Errorf("label %q: empty name", s)
	}
	switch l.Scheme {
	case SchemeHost:
		if l.Arg != "" {
			return Label{}, fmt.Errorf("label %q: a host label takes no argument", s)
		}
	case SchemeDocker:
		if strings.TrimPrefix(l.Arg, "//") == "" {
			return Label{}, fmt.Errorf("label %q: a docker label names an image (docker://IMAGE)", s)
		}
	default:
		return Label{}, fmt.Errorf("label %q: unknown scheme %q (want host or docker)", s, l.Scheme)
	}
	return l, nil
}

// ParseLabels reads a list of labels, refusing a name given twice.
func ParseLabels(ss []string) ([]Label, error) {
	out := make([]Label, 0, len(ss))
	seen := map[string]bool{}
	for _, s := range ss {
		l, err := ParseLabel(s)
		if err != nil {
			return nil, err
		}
		if seen[l.Name] {
			return nil, fmt.Errorf("label %q given twice", l.Name)
		}
		seen[l.Name] = true
		out = append(out, l)
	}
	return out, nil
}

// String gives the label back in its `name:scheme[:arg]` form.
func (l Label) String() string {
	if l.Arg == "" {
		return l.Name + ":" + l.Scheme
	}
	return l.Name + ":" + l.Scheme + ":" + l.Arg
}

// Platform is what act runs the job on for this label: the host marker or a
// Docker image.
func (l Label) Platform() string {
	if l.Scheme == SchemeDocker {
		return strings.TrimPrefix(l.Arg, "//")
	}
	return hostPlatform
}

// labelNames are the names the forge matches `runs-on` against.
func labelNames(ls []Label) []string {
	names := make([]string, len(ls))
	for i, l := range ls {
		names[i] = l.Name
	}
	return names
}

// pickPlatform maps a job's runs-on to the platform of the first label it
// names. A job that names none of ours (its runs-on was edited, or it has
// none) runs on our first label's platform: the forge only hands us jobs it
// matched to us.
func pickPlatform(ls []Label, runsOn []string) string {
	for _, want := range runsOn {
		for _, l := range ls {
			if l.Name == want {
				return l.Platform()
			}
		}
	}
	if len(ls) == 0 {
		return ""
	}
	return ls[0].Platform()
}
