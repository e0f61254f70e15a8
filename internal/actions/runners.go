package actions

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/usererr"
)

// Scope is whose runners a registration token makes: a repository's
// (Repo > 0), a user's or organization's (Owner set), or the node's
// (neither).
type Scope struct {
	Owner common.Address
	Repo  uint64
}

func (sc Scope) owner() string {
	if sc.Owner == (common.Address{}) {
		return ""
	}
	return addr(sc.Owner)
}

// Runner is a registered runner.
type Runner struct {
	ID         int64
	UUID, Name string
	Scope      Scope
	Labels     []string // names only: what runs-on matches
	Version    string
	LastOnline int64 // Unix ms
}

// maxLabels bounds what a runner declares.
const maxLabels = 64

func secret() (string, error) {
	b := make([]byte, 20)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("draw a token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

func hashOf(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// RegistrationToken returns a new token that registers runners in sc, as
// Gitea's …/actions/runners/registration-token; earlier ones stay valid.
func (s *Service) RegistrationToken(ctx context.Context, sc Scope) (string, error) {
	tok, err := secret()
	if err != nil {
		return "", err
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO actions_runner_tokens (token_hash, scope_owner, scope_repo, created_ms) VALUES ($1, $2, $3, $4)`,
		hashOf(tok), sc.owner(), int64(sc.Repo), s.ms())
	if err != nil {
		return "", fmt.Errorf("store the registration token: %w", err)
	}
	return tok, nil
}

// register makes a runner from a registration token; it returns the
// runner with its own secret token, given once.
func (s *Service) register(ctx context.Context, regToken, name, version string, labels []string) (Runner, string, error) {
	var owner string
	var repo int64
	err := s.db.QueryRowContext(ctx, `SELECT scope_owner, scope_repo FROM actions_runner_tokens WHERE token_hash = $1`, hashOf(regToken)).Scan(&owner, &repo)
	if errors.Is(err, sql.ErrNoRows) {
		return Runner{}, "", usererr.New(usererr.Unauthenticated, "bad_token", "the registration token is not valid")
	}
	if err != nil {
		return Runner{}, "", fmt.Errorf("read the registration token: %w", err)
	}
	if labels, err = labelNames(labels); err != nil {
		return Runner{}, "", err
	}
	uuid, err := secret()
	if err != nil {
		return Runner{}, "", err
	}
	tok, err := secret()
	if err != nil {
		return Runner{}, "", err
	}
	r := Runner{UUID: uuid[:32], Name: strings.TrimSpace(name), Scope: Scope{Repo: uint64(repo)}, Labels: labels, Version: version, LastOnline: s.ms()}
	if owner != "" {
		r.Scope.Owner = common.HexToAddress(owner)
	}
	if r.Name == "" {
		r.Name = "runner-" + r.UUID[:8]
	}
	err = s.db.QueryRowContext(ctx, `INSERT INTO actions_runners (uuid, token_hash, name, scope_owner, scope_repo, labels, version, last_online_ms, created_ms)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING id`, r.UUID, hashOf(tok), r.Name, owner, repo, strings.Join(labels, ","), version, r.LastOnline).Scan(&r.ID)
	if err != nil {
		return Runner{}, "", fmt.Errorf("store the runner: %w", err)
	}
	return r, tok, nil
}

// labelNames are the names of labels given as act_runner gives them
// (`name:scheme:arg`), checked.
func labelNames(labels []string) ([]string, error) {
	if len(labels) > maxLabels {
		return nil, usererr.BadFieldf("labels", "at most %d labels", maxLabels)
	}
	out := make([]string, 0, len(labels))
	for _, l := range labels {
		name, _, _ := strings.Cut(strings.TrimSpace(l), ":")
		if name == "" || len(name) > 255 || strings.ContainsAny(name, ",\n") {
			return nil, usererr.BadFieldf("labels", "invalid label %q", l)
		}
		out = append(out, name)
	}
	return out, nil
}

// runnerOf is the runner uuid and token name, or an Unauthenticated error.
func (s *Service) runnerOf(ctx context.Context, uuid, token string) (Runner, error) {
	var r Runner
	var hash, owner, labels string
	var repo int64
	err := s.db.QueryRowContext(ctx, `SELECT id, uuid, token_hash, name, scope_owner, scope_repo, labels, version, last_online_ms
		FROM actions_runners WHERE uuid = $1`, uuid).Scan(&r.ID, &r.UUID, &hash, &r.Name, &owner, &repo, &labels, &r.Version, &r.LastOnline)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && hash != hashOf(token)) {
		return Runner{}, usererr.New(usererr.Unauthenticated, "bad_runner", "unregistered runner")
	}
	if err != nil {
		return Runner{}, fmt.Errorf("read the runner: %w", err)
	}
	r.Scope.Repo = uint64(repo)
	if owner != "" {
		r.Scope.Owner = common.HexToAddress(owner)
	}
	if labels != "" {
		r.Labels = strings.Split(labels, ",")
	}
	return r, nil
}

// seen notes a runner's contact (at most every few seconds, to keep polls
// cheap).
func (s *Service) seen(ctx context.Context, r *Runner) error {
	now := s.ms()
	if now-r.LastOnline < 3000 {
		return nil
	}
	r.LastOnline = now
	if _, err := s.db.ExecContext(ctx, `UPDATE actions_runners SET last_online_ms = $1 WHERE id = $2`, now, r.ID); err != nil {
		return fmt.Errorf("note the runner's contact: %w", err)
	}
	return nil
}

// declare records a runner's version and labels.
func (s *Service) declare(ctx context.Context, r Runner, version string, labels []string) (Runner, error) {
	names, err := labelNames(labels)
	if err != nil {
		return Runner{}, err
	}
	r.Labels, r.Version, r.LastOnline = names, version, s.ms()
	_, err = s.db.ExecContext(ctx, `UPDATE actions_runners SET labels = $1, version = $2, last_online_ms = $3 WHERE id = $4`,
		strings.Join(names, ","), version, r.LastOnline, r.ID)
	if err != nil {
		return Runner{}, fmt.Errorf("declare the runner: %w", err)
	}
	s.readyChanged() // its labels may now take jobs it could not
	return r, nil
}

// Runners lists the runners registered in sc exactly (Gitea's lists are
// per level).
func (s *Service) Runners(ctx context.Context, sc Scope) ([]Runner, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, uuid, name, labels, version, last_online_ms FROM actions_runners
		WHERE scope_owner = $1 AND scope_repo = $2 ORDER BY id`, sc.owner(), int64(sc.Repo))
	if err != nil {
		return nil, fmt.Errorf("list runners: %w", err)
	}
	defer rows.Close()
	var out []Runner
	for rows.Next() {
		r := Runner{Scope: sc}
		var labels string
		if err := rows.Scan(&r.ID, &r.UUID, &r.Name, &labels, &r.Version, &r.LastOnline); err != nil {
			return nil, fmt.Errorf("read a runner: %w", err)
		}
		if labels != "" {
			r.Labels = strings.Split(labels, ",")
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// onlineWithin is how recent a runner's last contact must be for it to
// count as online (it polls every few seconds).
const onlineWithin = 30_000

// Online says whether r has been in touch lately.
func (s *Service) Online(r Runner) bool { return s.ms()-r.LastOnline < onlineWithin }

// Busy says whether runner id is running a task.
func (s *Service) Busy(ctx context.Context, id int64) (bool, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM actions_jobs WHERE runner_id = $1 AND status = 'running'`, id).Scan(&n); err != nil {
		return false, fmt.Errorf("count the runner's tasks: %w", err)
	}
	return n > 0, nil
}

// DeleteRunner removes sc's runner id; its running task fails at the
// timeout, as a vanished runner's does.
func (s *Service) DeleteRunner(ctx context.Context, sc Scope, id int64) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM actions_runners WHERE id = $1 AND scope_owner = $2 AND scope_repo = $3`, id, sc.owner(), int64(sc.Repo))
	if err != nil {
		return fmt.Errorf("delete runner %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return usererr.Missingf("no runner %d here", id)
	}
	return nil
}
