package api

import (
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Query parameters are bounded once, for every API route, before the
// Endpoint runs: an unbounded value reaches SQL (a 60,000-character q made
// SQLite's LIKE fail with "pattern too complex") and git. The limits are
// far above anything a person or client sends.
const (
	// maxSearchChars bounds q, the search text, in characters (Gitea
	// clients send a few words).
	maxSearchChars = 256
	// maxPathBytes bounds the parameters that name a file or directory in
	// a repository, as long as a path may be on Linux (PATH_MAX).
	maxPathBytes = 4096
	// maxQueryBytes bounds every other parameter: refs, names, addresses,
	// filters, numbers.
	maxQueryBytes = 1024
)

// pathParams are the query parameters holding a path in a repository.
var pathParams = map[string]bool{"path": true, "dir": true}

// BoundQuery answers 422 query_too_long, naming the parameter, when a
// query parameter of the request is longer than its limit; otherwise
// routes serves it.
func (a *API) BoundQuery(routes *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := checkPath(r); err != nil {
			_, r.Pattern = routes.Handler(r)
			a.writeError(w, r, err)
			return
		}
		if err := checkQuery(r); err != nil {
			// The route the request was for, as the metrics label it.
			_, r.Pattern = routes.Handler(r)
			a.writeError(w, r, err)
			return
		}
		routes.ServeHTTP(w, r)
	})
}

// checkPath answers 404 for a URL whose path decodes to a NUL: no user,
// repository, ref, tag, label or file is named with one (the chain and git
// refuse it), and as a path value it reached PostgreSQL (which refuses to
// compare it: a 500) or git's command line (which cannot carry it).
func checkPath(r *http.Request) error {
	if strings.IndexByte(r.URL.Path, 0) >= 0 {
		return usererr.Missingf("nothing is named with a NUL character")
	}
	return nil
}

// checkQuery returns a user error for a query parameter (or its name) over
// its limit.
func checkQuery(r *http.Request) error {
	if r.URL.RawQuery == "" {
		return nil
	}
	for name, values := range r.URL.Query() {
		if len(name) > maxQueryBytes {
			return tooLong("", fmt.Sprintf("a query parameter's name may be at most %d bytes", maxQueryBytes))
		}
		for _, v := range values {
			switch {
			case name == "q":
				if utf8.RuneCountInString(v) > maxSearchChars {
					return tooLong(name, fmt.Sprintf("q may be at most %d characters", maxSearchChars))
				}
			case pathParams[name]:
				if len(v) > maxPathBytes {
					return tooLong(name, fmt.Sprintf("%s may be at most %d bytes", name, maxPathBytes))
				}
			case len(v) > maxQueryBytes:
				return tooLong(name, fmt.Sprintf("%s may be at most %d bytes", name, maxQueryBytes))
			}
			if err := checkQueryText(name, v); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkQueryText refuses control characters and invalid UTF-8 in a query
// parameter: PostgreSQL refuses NUL in any text it compares (a search for
// "%00" was a 500 there). A path in a repository may hold any byte but
// NUL, as git allows, so only NUL is refused in one; it never reaches SQL.
func checkQueryText(name, v string) error {
	if pathParams[name] {
		if i := strings.IndexByte(v, 0); i >= 0 {
			return usererr.Unprocessablef(name, usererr.CodeInvalidText, "%s has a NUL character at byte %d, which no path holds", name, i)
		}
		return nil
	}
	if err := tx.CheckLine(name, v); err != nil {
		return usererr.New(usererr.Unprocessable, usererr.CodeInvalidText, err.Error()).On(name)
	}
	return nil
}

func tooLong(field, message string) error {
	return usererr.New(usererr.Unprocessable, "query_too_long", message).On(field)
}

// BoolParam reads a true/false query parameter with a default.
func BoolParam(r *http.Request, name string, def bool) bool {
	switch r.URL.Query().Get(name) {
	case "true", "1":
		return true
	case "false", "0":
		return false
	}
	return def
}

// StateFilter reads ?state= of a list of issues or pull requests: open
// (the default), closed, or all (""), as Gitea's API takes it.
func StateFilter(r *http.Request) (string, error) {
	switch r.URL.Query().Get("state") {
	case "", chainforge.StateOpen:
		return chainforge.StateOpen, nil
	case chainforge.StateClosed:
		return chainforge.StateClosed, nil
	case "all":
		return "", nil
	}
	return "", usererr.InvalidField("state", "invalid_state", "state must be open, closed or all")
}

// TypeFilter reads ?type= of a list of issues: issues or pulls, nil for
// both.
func TypeFilter(r *http.Request) (*bool, error) {
	switch r.URL.Query().Get("type") {
	case "":
		return nil, nil
	case "issues":
		return new(false), nil
	case "pulls":
		return new(true), nil
	}
	return nil, usererr.InvalidField("type", "invalid_type", "type must be issues or pulls")
}

// SortFilter reads ?sort= of a list of issues or pull requests: one of
// Gitea's orders (index.IssueSorts), newest first when absent. Gitea's
// issue list takes no sort; dForge's takes the pull list's.
func SortFilter(r *http.Request) (string, error) {
	s := r.URL.Query().Get("sort")
	if !index.ValidIssueSort(s) {
		return "", usererr.InvalidField("sort", "invalid_sort", "sort must be one of "+strings.Join(index.IssueSorts, ", "))
	}
	return s, nil
}

// LabelsParam is ?labels=, comma-separated or repeated (Gitea's pull list
// sends labels=1&labels=2).
func LabelsParam(r *http.Request) string {
	q := r.URL.Query()
	if all := q["labels"]; len(all) > 1 {
		return strings.Join(all, ",")
	}
	return q.Get("labels")
}
