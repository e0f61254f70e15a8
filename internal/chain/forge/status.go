package forge

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"
)

// Commit statuses are CI results on a commit, Gitea's CommitStatus: public
// collaboration data, so on chain. State keeps the latest status of each
// context of a commit (what a protected branch's merge rule reads); the
// index keeps every one, as Gitea lists them.

// The states of a commit status, Gitea's.
const (
	StatusPending = "pending"
	StatusSuccess = "success"
	StatusError   = "error"
	StatusFailure = "failure"
	StatusWarning = "warning"
)

// StatusStates lists the states a status may take.
var StatusStates = []string{StatusPending, StatusSuccess, StatusError, StatusFailure, StatusWarning}

// Limits of a status's fields.
const (
	MaxStatusContext     = 255
	MaxStatusDescription = 1024
	MaxTargetURL         = 2048
)

// DefaultStatusContext is the context of a status sent without one, as in
// Gitea.
const DefaultStatusContext = "default"

// StatusCreate is the payload of status.create.
type StatusCreate struct {
	Repo        uint64 `json:"repo"`
	SHA         string `json:"sha"`
	State       string `json:"state"`
	Context     string `json:"context"`
	Description string `json:"description"`
	TargetURL   string `json:"targetUrl"`
}

// Status is one commit status as recorded.
type Status struct {
	ID          uint64         `json:"id"`
	Repo        uint64         `json:"repo"`
	SHA         string         `json:"sha"`
	State       string         `json:"state"`
	Context     string         `json:"context"`
	Description string         `json:"description"`
	TargetURL   string         `json:"targetUrl"`
	Creator     common.Address `json:"creator"`
	Height      uint64         `json:"height"`
}

func statusKey(repo uint64, sha, context string) []byte {
	return key([]byte("status"), u64(repo), []byte(sha), []byte(context))
}

func statusCreate(s *session, payload []byte) error {
	var p StatusCreate
	if err := decode(payload, &p); err != nil {
		return err
	}
	r, _, err := s.access(p.Repo, PermWrite, "setting a commit status")
	if err != nil {
		return err
	}
	if p.Context == "" {
		p.Context = DefaultStatusContext
	}
	if err := checkStatus(p); err != nil {
		return err
	}
	id, err := s.nextID("status")
	if err != nil {
		return err
	}
	st := &Status{ID: id, Repo: r.ID, SHA: p.SHA, State: p.State, Context: p.Context, Description: p.Description,
		TargetURL: p.TargetURL, Creator: s.actor, Height: s.env.Height}
	if err := s.putJSON(statusKey(r.ID, p.SHA, p.Context), st); err != nil {
		return err
	}
	s.change.Status = st
	return nil
}

func checkStatus(p StatusCreate) error {
	if err := validateSHA("sha", p.SHA); err != nil || isZeroSHA(p.SHA) {
		return invalid("sha", "must be a commit id: 40 or 64 lower-case hex digits")
	}
	if !slices.Contains(StatusStates, p.State) {
		return invalid("state", "must be pending, success, error, failure or warning")
	}
	if strings.TrimSpace(p.Context) == "" || utf8.RuneCountInString(p.Context) > MaxStatusContext {
		return invalid("context", "must be 1 to %d characters", MaxStatusContext)
	}
	if utf8.RuneCountInString(p.Description) > MaxStatusDescription {
		return invalid("description", "may be at most %d characters", MaxStatusDescription)
	}
	return validateTargetURL(p.TargetURL)
}

// validateTargetURL takes "" or an absolute http(s) URL without spaces: a
// link people follow from the status, so no javascript: or data: URLs.
func validateTargetURL(u string) error {
	if u == "" {
		return nil
	}
	lower := strings.ToLower(u)
	if len(u) > MaxTargetURL || strings.ContainsAny(u, " \t\"<>") ||
		!(strings.HasPrefix(lower, "https://") || strings.HasPrefix(lower, "http://")) || len(strings.TrimLeft(lower[strings.Index(lower, "//")+2:], "/")) == 0 {
		return invalid("targetUrl", "must be empty or an http(s) URL of at most %d bytes", MaxTargetURL)
	}
	return nil
}

// latestStatus is the latest status of context on sha, or nil.
func (s *session) latestStatus(repo uint64, sha, context string) (*Status, error) {
	var st Status
	ok, err := s.getJSON(statusKey(repo, sha, context), &st)
	if err != nil || !ok {
		return nil, err
	}
	return &st, nil
}
