package params

import (
	"fmt"
	"strings"
)

// Markdown is the parameter reference content/docs/governance.md embeds
// between its markers: every changeable parameter with its default, its
// bounds and why the default is what it is.
func Markdown() string {
	var b strings.Builder
	d := Defaults()
	groups := []struct{ key, title string }{
		{"gov", "Governance"}, {"rewards", "Rewards"}, {"reputation", "Reputation"}, {"ledger", "Ledger"},
	}
	for _, g := range groups {
		fmt.Fprintf(&b, "### %s\n\n| Parameter | Default | Allowed | Why this default |\n|---|---|---|---|\n", g.title)
		for _, p := range Docs() {
			if p.Group != g.key {
				continue
			}
			v, _ := d.Get(p.Name)
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", p.Name, show(v, p.Unit), bounds(p), p.Doc)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func show(v uint64, unit string) string {
	switch unit {
	case "micro":
		return fmt.Sprintf("%s DFG", group(v/token)) + fraction(v%token)
	case "bps":
		return fmt.Sprintf("%d bps (%d.%02d %%)", v, v/100, v%100)
	default:
		return group(v) + " " + unit
	}
}

func fraction(micro uint64) string {
	if micro == 0 {
		return ""
	}
	return fmt.Sprintf(" + %d micro-units", micro)
}

func bounds(p Doc) string {
	if p.Max >= noMax || p.Max >= maxAmount {
		return fmt.Sprintf("%s or more", group(p.Min))
	}
	return fmt.Sprintf("%s to %s", group(p.Min), group(p.Max))
}

// group writes n with thousands separators.
func group(n uint64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
