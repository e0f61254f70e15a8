// Package deploykeys keeps repositories' deploy keys: SSH public keys that
// open one repository over git over SSH, to read it (and, not read-only,
// to push to it), as Gitea's /repos/{owner}/{repo}/keys.
//
// Deploy keys are credentials, so they are node-local like tokens: never
// on chain, kept in this node's SQL, and they open the repository on this
// node only. Only the repository's admins manage them. A push is a
// person's transaction on chain, so a key that is not read-only pushes in
// the name of the admin who added it, with that person's rights at the
// time of the push.
package deploykeys

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/sshkeys"
	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/usererr"
)

// MaxTitle is the longest title, Gitea's (CreateKeyOption: MaxSize(50)).
const MaxTitle = 50

// Key is one deploy key of a repository.
type Key struct {
	ID          int64
	Repo        uint64
	Title       string
	Key         string // "<type> <base64>", as the chain keeps user keys
	Fingerprint string // "SHA256:..."
	ReadOnly    bool
	AddedBy     common.Address // the admin who added it, in whose name it pushes
	Created     time.Time
}

// UserKeys tells whether fingerprint is some user's SSH key (on chain): a
// key is a person's or a repository's, never both, so SSH knows whom it
// authenticates.
type UserKeys func(ctx context.Context, fingerprint string) (bool, error)

// Service keeps the deploy keys.
type Service struct {
	db       *sql.DB
	userKeys UserKeys
	now      func() time.Time
}

// New returns the deploy keys of st; userKeys (nil: none checked) finds
// users' keys, which may not become deploy keys.
func New(st *store.Store, userKeys UserKeys) *Service {
	return &Service{db: st.DB(), userKeys: userKeys, now: time.Now}
}

// mayManage is the one access rule: the repository's admins (Gitea's repo
// admin, the forge's maintain level) and owners manage its deploy keys.
func mayManage(perm chainforge.Perm) error {
	if perm < chainforge.PermMaintain {
		return usererr.Deniedf("only the repository's admins may manage its deploy keys")
	}
	return nil
}

// Add gives repo the key, after checking that perm (the caller's on repo)
// allows it and the key is a valid SSH public key no one uses yet there.
func (s *Service) Add(ctx context.Context, perm chainforge.Perm, by common.Address, repo uint64, title, text string, readOnly bool) (Key, error) {
	if err := mayManage(perm); err != nil {
		return Key{}, err
	}
	title = strings.TrimSpace(title)
	if title == "" || len([]rune(title)) > MaxTitle || strings.ContainsAny(title, "\r\n\x00") {
		return Key{}, usererr.BadFieldf("title", "title must be 1 to %d characters on one line", MaxTitle)
	}
	pk, err := sshkeys.ParseKey(text)
	if err != nil {
		return Key{}, usererr.Unprocessablef("key", "invalid_key", "%s", keyMessage(err))
	}
	if s.userKeys != nil {
		taken, err := s.userKeys(ctx, pk.Fingerprint)
		if err != nil {
			return Key{}, err
		}
		if taken {
			return Key{}, usererr.Unprocessablef("key", "key_in_use", "this key is a user's SSH key; a deploy key must be a key of its own")
		}
	}
	k := Key{Repo: repo, Title: title, Key: pk.Key, Fingerprint: pk.Fingerprint, ReadOnly: readOnly, AddedBy: by, Created: s.now().UTC().Truncate(time.Millisecond)}
	err = s.db.QueryRowContext(ctx, `INSERT INTO deploy_keys (repo_id, title, key_text, fingerprint, read_only, added_by, created_ms)
		VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (repo_id, fingerprint) DO NOTHING RETURNING id`,
		int64(repo), k.Title, k.Key, k.Fingerprint, k.ReadOnly, strings.ToLower(by.Hex()), k.Created.UnixMilli()).Scan(&k.ID)
	if errors.Is(err, sql.ErrNoRows) {
		return Key{}, usererr.Unprocessablef("key", "key_in_use", "this key is already a deploy key of the repository")
	}
	if err != nil {
		return Key{}, fmt.Errorf("insert deploy key: %w", err)
	}
	return k, nil
}

const columns = `id, repo_id, title, key_text, fingerprint, read_only, added_by, created_ms`

func scan(row interface{ Scan(...any) error }) (Key, error) {
	var k Key
	var repo, created int64
	var by string
	if err := row.Scan(&k.ID, &repo, &k.Title, &k.Key, &k.Fingerprint, &k.ReadOnly, &by, &created); err != nil {
		return Key{}, err
	}
	k.Repo, k.AddedBy, k.Created = uint64(repo), common.HexToAddress(by), time.UnixMilli(created).UTC()
	return k, nil
}

// List returns repo's deploy keys, oldest first, a page of limit from
// offset, and how many there are; fingerprint, when not "", picks one.
func (s *Service) List(ctx context.Context, perm chainforge.Perm, repo uint64, fingerprint string, limit, offset int) ([]Key, int64, error) {
	if err := mayManage(perm); err != nil {
		return nil, 0, err
	}
	var total int64
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM deploy_keys WHERE repo_id = $1 AND ($2 = '' OR fingerprint = $2)`,
		int64(repo), fingerprint).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count deploy keys: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+columns+` FROM deploy_keys WHERE repo_id = $1 AND ($2 = '' OR fingerprint = $2)
		ORDER BY id LIMIT $3 OFFSET $4`, int64(repo), fingerprint, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("list deploy keys: %w", err)
	}
	defer rows.Close()
	out := []Key{}
	for rows.Next() {
		k, err := scan(rows)
		if err != nil {
			return nil, 0, fmt.Errorf("scan deploy key: %w", err)
		}
		out = append(out, k)
	}
	return out, total, rows.Err()
}

// Get returns repo's deploy key id.
func (s *Service) Get(ctx context.Context, perm chainforge.Perm, repo uint64, id int64) (Key, error) {
	if err := mayManage(perm); err != nil {
		return Key{}, err
	}
	k, err := scan(s.db.QueryRowContext(ctx, `SELECT `+columns+` FROM deploy_keys WHERE repo_id = $1 AND id = $2`, int64(repo), id))
	if errors.Is(err, sql.ErrNoRows) {
		return Key{}, usererr.Missingf("the repository has no deploy key %d", id)
	}
	if err != nil {
		return Key{}, fmt.Errorf("read deploy key: %w", err)
	}
	return k, nil
}

// Delete removes repo's deploy key id.
func (s *Service) Delete(ctx context.Context, perm chainforge.Perm, repo uint64, id int64) error {
	if err := mayManage(perm); err != nil {
		return err
	}
	res, err := s.db.ExecContext(ctx, `DELETE FROM deploy_keys WHERE repo_id = $1 AND id = $2`, int64(repo), id)
	if err != nil {
		return fmt.Errorf("delete deploy key: %w", err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return usererr.Missingf("the repository has no deploy key %d", id)
	}
	return nil
}

// Grant is what a deploy key opens: one repository, read-only or not,
// and whose name its pushes are in.
type Grant struct {
	Repo     uint64
	ReadOnly bool
	AddedBy  common.Address
}

// Grants returns what the key of fingerprint opens (none: it is no
// deploy key), for git over SSH.
func (s *Service) Grants(ctx context.Context, fingerprint string) ([]Grant, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT repo_id, read_only, added_by FROM deploy_keys WHERE fingerprint = $1 ORDER BY id`, fingerprint)
	if err != nil {
		return nil, fmt.Errorf("look up deploy key: %w", err)
	}
	defer rows.Close()
	var out []Grant
	for rows.Next() {
		var g Grant
		var repo int64
		var by string
		if err := rows.Scan(&repo, &g.ReadOnly, &by); err != nil {
			return nil, fmt.Errorf("scan deploy key: %w", err)
		}
		g.Repo, g.AddedBy = uint64(repo), common.HexToAddress(by)
		out = append(out, g)
	}
	return out, rows.Err()
}

// keyMessage is the message of ParseKey's error without its code's name.
func keyMessage(err error) string {
	if _, msg, ok := strings.Cut(err.Error(), ": "); ok {
		return msg
	}
	return err.Error()
}
