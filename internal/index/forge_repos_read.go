package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/forge"
)

// Repositories: one by id or name, the names in use, a user's permission,
// lists, and the ref updates pushed to one.

// Repo is a projected repository.
type Repo struct {
	ID                uint64   `json:"id"`
	Owner             User     `json:"owner"`
	Name              string   `json:"name"`
	Description       string   `json:"description"`
	DefaultBranch     string   `json:"defaultBranch"`
	ProtectedBranches []string `json:"protectedBranches"`
	Private           bool     `json:"private"`
	ForkOf            uint64   `json:"forkOf,omitempty"`
	Stars             uint64   `json:"stars"`
	Forks             uint64   `json:"forks"`
	Watchers          uint64   `json:"watchers"`
	OpenIssues        uint64   `json:"openIssues"`
	OpenPulls         uint64   `json:"openPulls"`
	CreatedHeight     int64    `json:"createdHeight"`
	Created           string   `json:"created"`
	UpdatedHeight     int64    `json:"updatedHeight"`
	Updated           string   `json:"updated"`
	Topics            []string `json:"topics"`
	Website           string   `json:"website"`
	// PendingTransfer: the repository is offered to a new owner
	// (RepoTransfer reads the offer).
	PendingTransfer bool `json:"pendingTransfer,omitempty"`
	// Signer is the key that signed its creation and Delegation the
	// delegate it acted under ("" when the owner signed; both "" before
	// the own-keys rules, and for a private repository).
	Signer     string `json:"signer"`
	Delegation string `json:"delegation"`
}

// OwnerAddress is the owner as an address.
func (r Repo) OwnerAddress() common.Address { return common.HexToAddress(r.Owner.Address) }

const repoColumns = `r.id, r.owner, ` + "COALESCE(oa.username, oa.default_name, (SELECT CASE WHEN wide_names THEN '' ELSE '-' END FROM chain_index WHERE id = 1), '')" + `, r.name, r.description, r.default_branch,

	r.protected_branches, r.private, r.fork_of, r.stars, r.forks, r.watchers, r.open_issues, r.open_pulls,
	r.created_height, r.created_time_ns, r.updated_height, r.updated_time_ns, r.topics, r.website, r.signer, r.delegation,
	EXISTS (SELECT 1 FROM forge_repo_transfers rt WHERE rt.repo_id = r.id)`

const repoFrom = `forge_repos r LEFT JOIN chain_accounts oa ON oa.address = r.owner`

func scanRepo(row scanner, extra ...any) (Repo, error) {
	var r Repo
	var owner, ownerName, protected, topics string
	var id, stars, forks, watchers, openIssues, openPulls, createdNS, updatedNS int64
	var forkOf sql.NullInt64
	err := row.Scan(append([]any{&id, &owner, &ownerName, &r.Name, &r.Description, &r.DefaultBranch, &protected, &r.Private,
		&forkOf, &stars, &forks, &watchers, &openIssues, &openPulls, &r.CreatedHeight, &createdNS, &r.UpdatedHeight, &updatedNS, &topics, &r.Website, &r.Signer, &r.Delegation, &r.PendingTransfer}, extra...)...)
	if err != nil {
		return r, err
	}
	r.ID, r.Owner = uint64(id), user(owner, ownerName)
	r.Stars, r.Forks, r.Watchers, r.OpenIssues, r.OpenPulls = uint64(stars), uint64(forks), uint64(watchers), uint64(openIssues), uint64(openPulls)
	r.ForkOf = uint64(forkOf.Int64)
	r.Created, r.Updated = formatTime(createdNS), formatTime(updatedNS)
	if err := json.Unmarshal([]byte(protected), &r.ProtectedBranches); err != nil {
		return r, fmt.Errorf("decode protected branches of repository %d: %w", r.ID, err)
	}
	if err := json.Unmarshal([]byte(topics), &r.Topics); err != nil || r.Topics == nil {
		r.Topics = []string{}
	}
	return r, nil
}

// RepoByID reads a repository.
func (ix *Index) RepoByID(ctx context.Context, id uint64) (Repo, error) {
	r, err := remember(ctx, ix, readKey("repo-by-id", "", id), func(ctx context.Context) (Repo, error) {
		return scanRepo(ix.queryRow(ctx, `SELECT `+repoColumns+` FROM `+repoFrom+` WHERE r.id = $1`, int64(id)))
	})
	r.ProtectedBranches, r.Topics = slices.Clone(r.ProtectedBranches), slices.Clone(r.Topics)
	if errors.Is(err, sql.ErrNoRows) {
		return Repo{}, notFound("repository %d does not exist", id)
	}
	if err != nil {
		return Repo{}, fmt.Errorf("read repository %d: %w", id, err)
	}
	return r, nil
}

// RepoByName finds owner's repository called name, in any case. Should a
// public and a private one share the name (the public one made or moved
// there on another node, or transferred in by someone else), the private
// one wins on the node that holds it: its owner pushes to owner/name
// believing it private, and the public one would publish that push. The
// public one stays reachable by id, and by name on every other node.
func (ix *Index) RepoByName(ctx context.Context, owner common.Address, name string) (Repo, error) {
	lower := strings.ToLower(name)
	r, err := remember(ctx, ix, readKey("repo-by-name", "", owner.Hex(), lower), func(ctx context.Context) (Repo, error) {
		return scanRepo(ix.queryRow(ctx, `SELECT `+repoColumns+` FROM `+repoFrom+`
		WHERE r.owner = $1 AND r.lower_name = $2 ORDER BY r.private DESC LIMIT 1`, owner.Hex(), lower))
	})
	r.ProtectedBranches, r.Topics = slices.Clone(r.ProtectedBranches), slices.Clone(r.Topics)
	if errors.Is(err, sql.ErrNoRows) {
		return Repo{}, notFound("repository %s does not exist", name)
	}
	if err != nil {
		return Repo{}, fmt.Errorf("read repository %s: %w", name, err)
	}
	return r, nil
}

// NameUsed reports whether owner has a repository called name (in any
// case) that is private (private true) or public (private false), other
// than the repository except (0: none).
func (ix *Index) NameUsed(ctx context.Context, owner common.Address, name string, private bool, except uint64) (bool, error) {
	var n int
	err := ix.queryRow(ctx, `SELECT COUNT(*) FROM forge_repos WHERE owner = $1 AND lower_name = $2 AND private = $3 AND id <> $4`,
		owner.Hex(), strings.ToLower(name), private, int64(except)).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("look up repository name %s: %w", name, err)
	}
	return n > 0, nil
}

// Permission is what u may do in r, by the forge module's own rule
// (forge.PermissionOf) over the projected collaborators.
func (ix *Index) Permission(ctx context.Context, r Repo, u common.Address) (forge.Perm, error) {
	perm, err := remember(ctx, ix, readKey("collaborator", "", r.ID, u.Hex()), func(ctx context.Context) (string, error) {
		var perm string
		err := ix.queryRow(ctx, `SELECT permission FROM forge_collaborators WHERE repo_id = $1 AND user_address = $2`,
			int64(r.ID), u.Hex()).Scan(&perm)
		if errors.Is(err, sql.ErrNoRows) {
			return "", nil
		}
		return perm, err
	})
	if err != nil {
		return forge.PermNone, fmt.Errorf("read permission on repository %d: %w", r.ID, err)
	}
	collab, _ := forge.ParsePerm(perm)
	// An organization's teams grant as the forge module's permission does.
	team, err := ix.teamPermission(ctx, r, u)
	if err != nil {
		return forge.PermNone, fmt.Errorf("read team permission on repository %d: %w", r.ID, err)
	}
	return forge.PermissionOf(forge.Repo{Owner: r.OwnerAddress(), Private: r.Private}, u, max(collab, team)), nil
}

// RepoFilter narrows a repository list. Viewer sees public repositories
// and the private ones they own or collaborate on; the zero address sees
// public ones only.
type RepoFilter struct {
	Viewer common.Address
	Owner  *common.Address
	Query  string // a substring of the name or description, any case
	Topic  string // one of its topics, exactly
	// Forks: nil lists all; true forks only; false sources only.
	Forks *bool
	// ForkOf lists the forks of that repository (0: any).
	ForkOf uint64
	// StarredBy and WatchedBy list what that account stars or watches.
	StarredBy, WatchedBy *common.Address
	// Sort is "updated" (default), "created", "stars", "forks" or "name".
	Sort string
}

var repoSorts = map[string]string{
	"": "r.updated_height DESC, r.id DESC", "updated": "r.updated_height DESC, r.id DESC", "created": "r.id DESC",
	"stars": "r.stars DESC, r.id DESC", "forks": "r.forks DESC, r.id DESC", "name": "r.lower_name, r.id",
}

// Repos lists the repositories f selects that f.Viewer may see.
func (ix *Index) Repos(ctx context.Context, f RepoFilter, p Page) ([]Repo, int64, error) {
	order, ok := repoSorts[f.Sort]
	if !ok {
		return nil, 0, fmt.Errorf("list repositories: unknown sort %q", f.Sort)
	}
	args := []any{f.Viewer.Hex()}
	where := []string{`(r.private = FALSE OR r.owner = $1 OR EXISTS (SELECT 1 FROM forge_collaborators c WHERE c.repo_id = r.id AND c.user_address = $1))`}
	if f.Owner != nil {
		args = append(args, f.Owner.Hex())
		where = append(where, fmt.Sprintf("r.owner = $%d", len(args)))
	}
	if f.Query != "" {
		args = append(args, "%"+likeEscape(strings.ToLower(f.Query))+"%")
		where = append(where, fmt.Sprintf(`(r.lower_name LIKE $%d ESCAPE '\' OR lower(r.description) LIKE $%d ESCAPE '\')`, len(args), len(args)))
	}
	if f.Topic != "" {
		args = append(args, f.Topic)
		where = append(where, fmt.Sprintf("EXISTS (SELECT 1 FROM forge_repo_topics t WHERE t.repo_id = r.id AND t.topic = $%d)", len(args)))
	}
	if f.Forks != nil {
		where = append(where, map[bool]string{true: "r.fork_of IS NOT NULL", false: "r.fork_of IS NULL"}[*f.Forks])
	}
	if f.ForkOf != 0 {
		args = append(args, int64(f.ForkOf))
		where = append(where, fmt.Sprintf("r.fork_of = $%d", len(args)))
	}
	if f.StarredBy != nil {
		args = append(args, f.StarredBy.Hex())
		where = append(where, fmt.Sprintf("EXISTS (SELECT 1 FROM forge_stars fl WHERE fl.repo_id = r.id AND fl.user_address = $%d)", len(args)))
	}
	if f.WatchedBy != nil { // asked to, or by default (defaultWatchers)
		args = append(args, f.WatchedBy.Hex())
		where = append(where, fmt.Sprintf("(EXISTS (SELECT 1 FROM forge_watches fl WHERE fl.repo_id = r.id AND fl.user_address = $%d) OR $%d IN (%s))",
			len(args), len(args), defaultWatchers("r.id")))
	}
	out := []Repo{}
	total, err := ix.page(ctx, repoColumns, repoFrom, strings.Join(where, " AND "), order, args, p, func(rows *sql.Rows, total *int64) error {
		r, err := scanRepo(rows, total)
		out = append(out, r)
		return err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("list repositories: %w", err)
	}
	return out, total, nil
}

// RefUpdate is a projected ref update.
type RefUpdate struct {
	ID     uint64 `json:"id"`
	Ref    string `json:"ref"`
	Old    string `json:"old"`
	New    string `json:"new"`
	Forced bool   `json:"forced"`
	Pusher User   `json:"pusher"`
	Height int64  `json:"height"`
	Time   string `json:"time"`
}

// Push is the last update of a branch: who pushed it, and when its block
// was made.
type Push struct {
	Pusher User
	Time   string
}

// LastPushes gives each branch of repo the last push to it that the
// projection holds, by branch name; a branch no recorded push made has
// none. A commit's own time says when it was written, not when it
// arrived: "Compare & pull request" asks this.
func (ix *Index) LastPushes(ctx context.Context, repo uint64) (map[string]Push, error) {
	rows, err := ix.query(ctx, `SELECT u.ref, u.pusher, `+userExpr("a")+`, u.time_ns
		FROM forge_ref_updates u LEFT JOIN chain_accounts a ON a.address = u.pusher
		WHERE u.id IN (SELECT MAX(id) FROM forge_ref_updates WHERE repo_id = $1 AND ref LIKE 'refs/heads/%' GROUP BY ref)`, int64(repo))
	if err != nil {
		return nil, fmt.Errorf("read last pushes: %w", err)
	}
	defer rows.Close()
	out := map[string]Push{}
	for rows.Next() {
		var ref, pusher, name string
		var ns int64
		if err := rows.Scan(&ref, &pusher, &name, &ns); err != nil {
			return nil, fmt.Errorf("read last pushes: %w", err)
		}
		out[strings.TrimPrefix(ref, "refs/heads/")] = Push{Pusher: user(pusher, name), Time: formatTime(ns)}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read last pushes: %w", err)
	}
	return out, nil
}

// RefUpdates lists a repository's ref updates, newest first.
func (ix *Index) RefUpdates(ctx context.Context, repo uint64, p Page) ([]RefUpdate, int64, error) {
	out := []RefUpdate{}
	total, err := ix.page(ctx, `u.id, u.ref, u.old_sha, u.new_sha, u.forced, u.pusher, `+userExpr("a")+`, u.height, u.time_ns`,
		`forge_ref_updates u LEFT JOIN chain_accounts a ON a.address = u.pusher`, "u.repo_id = $1", "u.id DESC",
		[]any{int64(repo)}, p, func(rows *sql.Rows, total *int64) error {
			var u RefUpdate
			var id, ns int64
			var pusher, name string
			err := rows.Scan(&id, &u.Ref, &u.Old, &u.New, &u.Forced, &pusher, &name, &u.Height, &ns, total)
			u.ID, u.Pusher, u.Time = uint64(id), user(pusher, name), formatTime(ns)
			out = append(out, u)
			return err
		})
	if err != nil {
		return nil, 0, fmt.Errorf("list ref updates: %w", err)
	}
	return out, total, nil
}
