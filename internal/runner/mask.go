package runner

import (
	"slices"
	"strings"
	"sync"
)

// masker replaces secret values in log lines with `***`. Values come from the
// task (its secrets and tokens) and from `::add-mask::` lines the job prints.
type masker struct {
	mu       sync.Mutex
	values   []string
	replacer *strings.Replacer
}

func newMasker(values ...string) *masker {
	m := &masker{}
	for _, v := range values {
		m.add(v)
	}
	return m
}

// add masks v from now on. A multi-line value is also masked line by line,
// since the log arrives one line at a time.
func (m *masker) add(v string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	cands := []string{v}
	if strings.ContainsAny(v, "\r\n") {
		cands = append(cands, strings.FieldsFunc(v, func(r rune) bool { return r == '\n' || r == '\r' })...)
	}
	changed := false
	for _, c := range cands {
		if strings.TrimSpace(c) == "" || slices.Contains(m.values, c) {
			continue
		}
		m.values = append(m.values, c)
		changed = true
	}
	if !changed {
		return
	}
	// strings.Replacer tries the old strings in argument order at each
	// position, so the longest goes first: a secret that contains another is
	// masked whole.
	slices.SortFunc(m.values, func(a, b string) int { return len(b) - len(a) })
	pairs := make([]string, 0, 2*len(m.values))
	for _, v := range m.values {
		pairs = append(pairs, v, "***")
	}
	m.replacer = strings.NewReplacer(pairs...)
}

func (m *masker) mask(s string) string {
	m.mu.Lock()
	r := m.replacer
	m.mu.Unlock()
	if r == nil {
		return s
	}
	return r.Replace(s)
}
