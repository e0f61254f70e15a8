package actions

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/usererr"
)

// Secrets and variables, Gitea's three levels: a repository's, and its
// owner's (a user's or an organization's). A job gets its owner's,
// overridden by its repository's. Secrets are sealed with the node's key
// (Config.SecretKey) before they reach SQL and leave the service only in
// a task; variables are plain.

// Bounds on what a scope holds.
const (
	maxNameLen        = 255
	maxValueLen       = 64 << 10 // a secret's or variable's value, bytes
	maxDescriptionLen = 4096
	maxPerScope       = 1000 // secrets, and variables, of one scope
)

// Secret is a secret as the API lists it: never its value.
type Secret struct {
	Name, Description string
	Created           int64 // Unix ms
}

var (
	namePattern     = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)
	reservedPrefix  = regexp.MustCompile(`(?i)^GIT(EA|HUB)_`)
	errSecretsNoKey = errors.New("actions: the node has no secret key")
)

// checkName is name as stored (upper-case), or a 422 on field: Gitea's
// rules for secret and variable names.
func checkName(field, name string) (string, error) {
	switch {
	case name == "":
		return "", usererr.BadFieldf(field, "%s is required", field)
	case len(name) > maxNameLen:
		return "", usererr.BadFieldf(field, "%s is longer than %d characters", field, maxNameLen)
	case !namePattern.MatchString(name):
		return "", usererr.BadFieldf(field, "%s may hold only letters, digits and _, and may not start with a digit", field)
	case reservedPrefix.MatchString(name):
		return "", usererr.BadFieldf(field, "%s may not start with GITEA_ or GITHUB_", field)
	}
	return strings.ToUpper(name), nil
}

// checkValue is a 422 on field for a value out of bounds.
func checkValue(field, value string, limit int) error {
	if len(value) > limit {
		return usererr.BadFieldf(field, "%s is longer than %d bytes", field, limit)
	}
	if !utf8.ValidString(value) {
		return usererr.BadFieldf(field, "%s is not valid UTF-8", field)
	}
	return nil
}

// checkScope refuses the node's scope: secrets and variables belong to a
// repository or an owner.
func checkScope(sc Scope) error {
	if sc.Repo == 0 && sc.owner() == "" {
		return fmt.Errorf("actions: secrets and variables need a repository or an owner")
	}
	return nil
}

// aead is the node key's AES-256-GCM.
func (s *Service) aead() (cipher.AEAD, error) {
	if len(s.cfg.SecretKey) == 0 {
		return nil, errSecretsNoKey
	}
	block, err := aes.NewCipher(s.cfg.SecretKey)
	if err != nil {
		return nil, fmt.Errorf("actions: the secret key: %w", err)
	}
	return cipher.NewGCM(block)
}

// sealAD binds a sealed value to its row's scope and name, so a value
// copied into another row does not open there.
func sealAD(sc Scope, name string) []byte {
	return []byte("dforge-actions-secret\x00" + sc.owner() + "\x00" + strconv.FormatUint(sc.Repo, 10) + "\x00" + name)
}

func (s *Service) seal(sc Scope, name, value string) (string, error) {
	g, err := s.aead()
	if err != nil {
		return "", err
	}
	nonce := make([]byte, g.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("draw a nonce: %w", err)
	}
	return base64.StdEncoding.EncodeToString(g.Seal(nonce, nonce, []byte(value), sealAD(sc, name))), nil
}

func (s *Service) open(sc Scope, name, sealed string) (string, error) {
	g, err := s.aead()
	if err != nil {
		return "", err
	}
	raw, err := base64.StdEncoding.DecodeString(sealed)
	if err != nil || len(raw) < g.NonceSize() {
		return "", fmt.Errorf("secret %s is not sealed data", name)
	}
	plain, err := g.Open(nil, raw[:g.NonceSize()], raw[g.NonceSize():], sealAD(sc, name))
	if err != nil {
		return "", fmt.Errorf("open secret %s: %w", name, err)
	}
	return string(plain), nil
}

// Secrets lists sc's secrets by name, with their total.
func (s *Service) Secrets(ctx context.Context, sc Scope, limit, offset int) ([]Secret, int64, error) {
	var total int64
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM actions_secrets WHERE scope_owner = $1 AND scope_repo = $2`,
		sc.owner(), int64(sc.Repo)).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count secrets: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT name, description, created_ms FROM actions_secrets WHERE scope_owner = $1 AND scope_repo = $2
		ORDER BY name LIMIT $3 OFFSET $4`, sc.owner(), int64(sc.Repo), limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("list secrets: %w", err)
	}
	defer rows.Close()
	var out []Secret
	for rows.Next() {
		var x Secret
		if err := rows.Scan(&x.Name, &x.Description, &x.Created); err != nil {
			return nil, 0, fmt.Errorf("read a secret: %w", err)
		}
		out = append(out, x)
	}
	return out, total, rows.Err()
}

// SetSecret creates or replaces sc's secret name; created says which.
func (s *Service) SetSecret(ctx context.Context, sc Scope, name, data, description string) (created bool, err error) {
	if err := checkScope(sc); err != nil {
		return false, err
	}
	if name, err = checkName("name", name); err != nil {
		return false, err
	}
	if data, err = checkData("data", data); err != nil {
		return false, err
	}
	if err := checkValue("description", description, maxDescriptionLen); err != nil {
		return false, err
	}
	sealed, err := s.seal(sc, name, data)
	if err != nil {
		return false, err
	}
	return s.upsert(ctx, "actions_secrets", sc, name, sealed, description)
}

// upsert writes one row of table (actions_secrets or actions_variables)
// in one statement each way, so nothing is ever half-written: an insert
// when the name is new, else an update.
func (s *Service) upsert(ctx context.Context, table string, sc Scope, name, data, description string) (bool, error) {
	now := s.ms()
	for range 3 { // a row deleted between the two statements: insert again
		res, err := s.db.ExecContext(ctx, `UPDATE `+table+` SET data = $1, description = $2, updated_ms = $3
			WHERE scope_owner = $4 AND scope_repo = $5 AND name = $6`, data, description, now, sc.owner(), int64(sc.Repo), name)
		if err != nil {
			return false, fmt.Errorf("update %s: %w", name, err)
		}
		if n, _ := res.RowsAffected(); n == 1 {
			return false, nil
		}
		if err := s.roomFor(ctx, table, sc); err != nil {
			return false, err
		}
		res, err = s.db.ExecContext(ctx, `INSERT INTO `+table+` (scope_owner, scope_repo, name, data, description, created_ms, updated_ms)
			VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT (scope_owner, scope_repo, name) DO NOTHING`,
			sc.owner(), int64(sc.Repo), name, data, description, now)
		if err != nil {
			return false, fmt.Errorf("insert %s: %w", name, err)
		}
		if n, _ := res.RowsAffected(); n == 1 {
			return true, nil
		}
	}
	return false, usererr.Clashf(usererr.CodeConflict, "%s is being changed by another request; try again", name)
}

// roomFor is a 422 when sc already holds maxPerScope rows of table.
func (s *Service) roomFor(ctx context.Context, table string, sc Scope) error {
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+table+` WHERE scope_owner = $1 AND scope_repo = $2`,
		sc.owner(), int64(sc.Repo)).Scan(&n); err != nil {
		return fmt.Errorf("count %s: %w", table, err)
	}
	if n >= maxPerScope {
		return usererr.BadFieldf("name", "at most %d are kept at one level; delete one first", maxPerScope)
	}
	return nil
}

// DeleteSecret removes sc's secret name.
func (s *Service) DeleteSecret(ctx context.Context, sc Scope, name string) error {
	return s.deleteRow(ctx, "actions_secrets", "secret", sc, name)
}

func (s *Service) deleteRow(ctx context.Context, table, what string, sc Scope, name string) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM `+table+` WHERE scope_owner = $1 AND scope_repo = $2 AND name = $3`,
		sc.owner(), int64(sc.Repo), strings.ToUpper(name))
	if err != nil {
		return fmt.Errorf("delete %s %s: %w", what, name, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return usererr.Missingf("there is no %s %s", what, name)
	}
	return nil
}

// ownerScope is the scope of repo's owner, for the secrets and variables
// its jobs inherit.
func (s *Service) ownerScope(ctx context.Context, repo uint64) (Scope, error) {
	rec, err := s.cfg.Index.RepoByID(ctx, repo)
	if err != nil {
		return Scope{}, fmt.Errorf("read repository %d: %w", repo, err)
	}
	sc := Scope{}
	if a := rec.Owner.Address; a != "" {
		sc.Owner = common.HexToAddress(a)
	}
	return sc, nil
}

// taskSecrets are the secrets a job of repo gets: its owner's, overridden
// by its own; none for a fork's pull request, whose code is a stranger's.
// A secret the node's key cannot open (the key was replaced) is left out
// and logged by name.
func (s *Service) taskSecrets(ctx context.Context, repo uint64, fromFork bool) (map[string]string, error) {
	out := map[string]string{}
	if fromFork {
		return out, nil
	}
	owner, err := s.ownerScope(ctx, repo)
	if err != nil {
		return nil, err
	}
	for _, sc := range []Scope{owner, {Repo: repo}} { // the repository's last: it wins
		if sc.owner() == "" && sc.Repo == 0 {
			continue
		}
		if err := s.openSecrets(ctx, sc, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// openSecrets adds sc's secrets to into, opened.
func (s *Service) openSecrets(ctx context.Context, sc Scope, into map[string]string) error {
	rows, err := s.db.QueryContext(ctx, `SELECT name, data FROM actions_secrets WHERE scope_owner = $1 AND scope_repo = $2`, sc.owner(), int64(sc.Repo))
	if err != nil {
		return fmt.Errorf("read secrets: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var name, sealed string
		if err := rows.Scan(&name, &sealed); err != nil {
			return fmt.Errorf("read a secret: %w", err)
		}
		v, err := s.open(sc, name, sealed)
		if err != nil {
			s.log.Warn("actions: a secret cannot be opened with the node's key; the job runs without it", "secret", name, "repo", sc.Repo, "owner", sc.owner(), "err", err)
			continue
		}
		into[name] = v
	}
	return rows.Err()
}

// masked is what a secret's value becomes in a log.
const masked = "***"

// maskRows replaces, in each of rows, every secret value repo's jobs
// could get with ***, so a runner that does not mask (or a step that
// encodes around its masking) still never puts a secret in the node's
// log. A multi-line secret is masked line by line too, as runners print
// it. The longest values go first, so one secret inside another leaves
// no tail of the longer one.
func (s *Service) maskRows(ctx context.Context, repo uint64, rows []string) ([]string, error) {
	secrets, err := s.taskSecrets(ctx, repo, false)
	if err != nil {
		return nil, err
	}
	if len(secrets) == 0 {
		return rows, nil
	}
	var values []string
	for _, v := range secrets {
		values = append(values, v)
		if strings.ContainsAny(v, "\r\n") {
			for _, line := range strings.FieldsFunc(v, func(r rune) bool { return r == '\n' || r == '\r' }) {
				values = append(values, strings.TrimSpace(line))
			}
		}
	}
	values = slices.DeleteFunc(values, func(v string) bool { return strings.TrimSpace(v) == "" })
	slices.SortFunc(values, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	pairs := make([]string, 0, 2*len(values))
	for _, v := range slices.Compact(values) {
		pairs = append(pairs, v, masked)
	}
	r := strings.NewReplacer(pairs...)
	out := make([]string, len(rows))
	for i, row := range rows {
		out[i] = r.Replace(row)
	}
	return out, nil
}
