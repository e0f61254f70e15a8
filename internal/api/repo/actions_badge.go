package repo

import (
	"fmt"
	"html"
	"net/http"
	"strings"

	"github.com/dforge/dforge/internal/actions"
	"github.com/dforge/dforge/internal/usererr"
)

// IsBadgePath says whether p is a workflow's status badge,
// /{owner}/{repo}/actions/workflows/{file}/badge.svg.
func IsBadgePath(p string) bool {
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	return len(parts) == 6 && parts[2] == "actions" && parts[3] == "workflows" && parts[5] == "badge.svg" && parts[0] != "api"
}

// ServeBadge serves the badge of the path's workflow: the state of its
// latest run on ?branch= (the default branch when none), as Gitea's.
func (a *Handler) ServeBadge(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/"), "/")
	if len(parts) != 6 {
		http.NotFound(w, r)
		return
	}
	r.SetPathValue("owner", parts[0])
	r.SetPathValue("repo", parts[1])
	r.SetPathValue("file", parts[4])
	a.Serve(a.badge)(w, r)
}

func (a *Handler) badge(w http.ResponseWriter, r *http.Request) error {
	if a.Actions == nil || a.Hosting == nil {
		return usererr.Missingf("not found")
	}
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	branch := r.URL.Query().Get("branch")
	if branch == "" {
		branch = rec.DefaultBranch
	}
	file := r.PathValue("file")
	runs, _, err := a.Actions.Runs(r.Context(), rec.ID, actions.RunFilter{Workflow: file, Ref: "refs/heads/" + branch, Limit: 1})
	if err != nil {
		return err
	}
	label, state := strings.TrimSuffix(strings.TrimSuffix(file, ".yml"), ".yaml"), "no status"
	if len(runs) > 0 {
		label, state = runs[0].Name, badgeState(runs[0].Status)
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "no-cache")
	_, err = fmt.Fprint(w, badgeSVG(label, state))
	return err
}

func badgeState(st string) string {
	switch st {
	case actions.StatusSuccess:
		return "passing"
	case actions.StatusFailure:
		return "failing"
	case actions.StatusRunning:
		return "running"
	case actions.StatusBlocked, actions.StatusWaiting:
		return "queued"
	}
	return st
}

var badgeColors = map[string]string{"passing": "#2da44e", "failing": "#cf222e", "running": "#bf8700", "queued": "#bf8700"}

// badgeSVG draws a flat two-part badge; widths follow the text at about
// 7 px a character, as shields do for Verdana 11.
func badgeSVG(label, state string) string {
	color := badgeColors[state]
	if color == "" {
		color = "#6e7781"
	}
	lw, sw := 10+7*len([]rune(label)), 10+7*len([]rune(state))
	l, s := html.EscapeString(label), html.EscapeString(state)
	return fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="20" role="img" aria-label="%s: %s"><title>%s: %s</title>`+
		`<rect width="%d" height="20" fill="#555"/><rect x="%d" width="%d" height="20" fill="%s"/>`+
		`<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">`+
		`<text x="%d" y="14">%s</text><text x="%d" y="14">%s</text></g></svg>`,
		lw+sw, l, s, l, s, lw, lw, sw, color, lw/2, l, lw+sw/2, s)
}
