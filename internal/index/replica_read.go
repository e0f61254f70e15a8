package index

import (
	"context"
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/forge"
)

// Reads for replication (internal/replica): which public repositories
// exist, and the value the chain gives each of their refs.

// PublicRepo is a public repository and the operator whose node relayed
// its creation (the zero address when the projection predates the column).
type PublicRepo struct {
	Repo
	Relayer common.Address
}

// PublicRepos lists the public repositories changed after height (every
// one for a negative height), by id.
func (ix *Index) PublicRepos(ctx context.Context, after int64) ([]PublicRepo, error) {
	rows, err := ix.query(ctx, `SELECT `+repoColumns+`, r.relayer FROM `+repoFrom+`
		WHERE r.private = FALSE AND r.id < $1 AND r.updated_height > $2 ORDER BY r.id`, int64(forge.PrivateIDBase), after)
	if err != nil {
		return nil, fmt.Errorf("list public repositories: %w", err)
	}
	defer rows.Close()
	var out []PublicRepo
	for rows.Next() {
		var relayer string
		r, err := scanRepo(rows, &relayer)
		if err != nil {
			return nil, fmt.Errorf("list public repositories: %w", err)
		}
		out = append(out, PublicRepo{Repo: r, Relayer: storedAddress(relayer)})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list public repositories: %w", err)
	}
	return out, nil
}

// ChainRef is a ref's value on chain: its latest update. SHA is the zero
// id for a ref the latest update deleted.
type ChainRef struct {
	Ref     string
	SHA     string
	Relayer common.Address // the operator that relayed the update (zero: unknown)
	Update  uint64         // the update's id; ids grow with every push
	Height  int64
}

// ChainRefs lists repo's refs as the chain has them, by name, with the
// refs a push deleted (SHA the zero id).
func (ix *Index) ChainRefs(ctx context.Context, repo uint64) ([]ChainRef, error) {
	rows, err := ix.query(ctx, `SELECT u.ref, u.new_sha, u.relayer, u.id, u.height FROM forge_ref_updates u
		WHERE u.repo_id = $1 AND u.id = (SELECT MAX(l.id) FROM forge_ref_updates l WHERE l.repo_id = u.repo_id AND l.ref = u.ref)
		ORDER BY u.ref`, int64(repo))
	if err != nil {
		return nil, fmt.Errorf("read refs of repository %d: %w", repo, err)
	}
	defer rows.Close()
	var out []ChainRef
	for rows.Next() {
		var c ChainRef
		var relayer string
		var id int64
		if err := rows.Scan(&c.Ref, &c.SHA, &relayer, &id, &c.Height); err != nil {
			return nil, fmt.Errorf("read refs of repository %d: %w", repo, err)
		}
		c.Relayer, c.Update = storedAddress(relayer), uint64(id)
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read refs of repository %d: %w", repo, err)
	}
	return out, nil
}

// Manifests lists the manifests of repo's pushes (CIDs of the blocks
// mapping their big objects to UnixFS files), newest first, each once.
func (ix *Index) Manifests(ctx context.Context, repo uint64) ([]string, error) {
	// Newest first by height: a push's own manifest and one sent after it.
	rows, err := ix.query(ctx, `SELECT manifest FROM (
			SELECT manifest, height FROM forge_ref_updates WHERE repo_id = $1 AND manifest <> ''
			UNION ALL
			SELECT manifest, height FROM forge_manifests WHERE repo_id = $1
		) m GROUP BY manifest ORDER BY MAX(height) DESC, manifest`, int64(repo))
	if err != nil {
		return nil, fmt.Errorf("read manifests of repository %d: %w", repo, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var m string
		if err := rows.Scan(&m); err != nil {
			return nil, fmt.Errorf("read manifests of repository %d: %w", repo, err)
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read manifests of repository %d: %w", repo, err)
	}
	return out, nil
}

// storedAddress parses a stored address; anything else is the zero address.
func storedAddress(s string) common.Address {
	if !common.IsHexAddress(s) {
		return common.Address{}
	}
	return common.HexToAddress(s)
}
