package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/forge"
)

// Org is a projected organization.
type Org struct {
	ID          uint64 `json:"id"`
	Address     string `json:"address"`
	Name        string `json:"name"`
	FullName    string `json:"fullName"`
	Description string `json:"description"`
	Website     string `json:"website"`
	Location    string `json:"location"`
	Visibility  string `json:"visibility"`
	OwnersTeam  uint64 `json:"ownersTeam"`
	Repos       uint64 `json:"repos"`
	Created     string `json:"created"`
}

const orgColumns = `o.id, o.address, o.name, o.full_name, o.description, o.website, o.location, o.visibility,
	o.owners_team, o.repos, o.created_time_ns`

func scanOrg(row scanner) (Org, error) {
	var o Org
	var id, owners, repos, ns int64
	err := row.Scan(&id, &o.Address, &o.Name, &o.FullName, &o.Description, &o.Website, &o.Location, &o.Visibility, &owners, &repos, &ns)
	o.ID, o.OwnersTeam, o.Repos, o.Created = uint64(id), uint64(owners), uint64(repos), formatTime(ns)
	return o, err
}

// orgWhere reads one organization.
func (ix *Index) orgWhere(ctx context.Context, what, where string, arg any) (Org, error) {
	o, err := scanOrg(ix.queryRow(ctx, `SELECT `+orgColumns+` FROM forge_orgs o WHERE `+where, arg))
	if errors.Is(err, sql.ErrNoRows) {
		return Org{}, notFound("organization %s does not exist", what)
	}
	if err != nil {
		return Org{}, fmt.Errorf("read organization %s: %w", what, err)
	}
	return o, nil
}

// OrgByName reads an organization by name, in any case.
func (ix *Index) OrgByName(ctx context.Context, name string) (Org, error) {
	return ix.orgWhere(ctx, name, `o.lower_name = $1`, strings.ToLower(name))
}

// OrgByID reads an organization by id.
func (ix *Index) OrgByID(ctx context.Context, id uint64) (Org, error) {
	return ix.orgWhere(ctx, fmt.Sprint(id), `o.id = $1`, int64(id))
}

// OrgAt reads the organization owning by address a; ok is false when a is
// no organization's.
func (ix *Index) OrgAt(ctx context.Context, a common.Address) (Org, bool, error) {
	type found struct {
		org Org
		ok  bool
	}
	f, err := remember(ctx, ix, readKey("org-at", "", a.Hex()), func(ctx context.Context) (found, error) {
		o, err := scanOrg(ix.queryRow(ctx, `SELECT `+orgColumns+` FROM forge_orgs o WHERE o.address = $1`, a.Hex()))
		if errors.Is(err, sql.ErrNoRows) {
			return found{}, nil
		}
		return found{o, err == nil}, err
	})
	if err != nil {
		return Org{}, false, fmt.Errorf("read organization at %s: %w", a.Hex(), err)
	}
	return f.org, f.ok, nil
}

// Orgs lists organizations by name; with member set, only those member
// is in.
func (ix *Index) Orgs(ctx context.Context, member *common.Address, p Page) ([]Org, int64, error) {
	where, args := "", []any{}
	if member != nil {
		where = `EXISTS (SELECT 1 FROM forge_team_members m WHERE m.org_id = o.id AND m.user_address = $1)`
		args = append(args, member.Hex())
	}
	out := []Org{}
	total, err := ix.listPage(ctx, orgColumns, "forge_orgs o", "forge_orgs o", where, "o.lower_name", args, p, func(rows *sql.Rows) error {
		o, err := scanOrg(rows)
		out = append(out, o)
		return err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("list organizations: %w", err)
	}
	return out, total, nil
}

// OrgMembers lists the members of an organization (of any of its teams)
// by address.
func (ix *Index) OrgMembers(ctx context.Context, org uint64, p Page) ([]User, int64, error) {
	return ix.users(ctx, `(SELECT DISTINCT user_address FROM forge_team_members WHERE org_id = $1) m`, []any{int64(org)}, p)
}

// TeamMembers lists the members of a team by address.
func (ix *Index) TeamMembers(ctx context.Context, team uint64, p Page) ([]User, int64, error) {
	return ix.users(ctx, `(SELECT user_address FROM forge_team_members WHERE team_id = $1) m`, []any{int64(team)}, p)
}

// users pages through the addresses (user_address) of the subquery from.
func (ix *Index) users(ctx context.Context, from string, args []any, p Page) ([]User, int64, error) {
	out := []User{}
	total, err := ix.listPage(ctx, `m.user_address, `+userExpr("a"), from+` LEFT JOIN chain_accounts a ON a.address = m.user_address`,
		from, "", "m.user_address", args, p, func(rows *sql.Rows) error {
			var addr, name string
			err := rows.Scan(&addr, &name)
			out = append(out, user(addr, name))
			return err
		})
	if err != nil {
		return nil, 0, fmt.Errorf("list members: %w", err)
	}
	return out, total, nil
}

// IsOrgMember says whether u is in a team of org.
func (ix *Index) IsOrgMember(ctx context.Context, org uint64, u common.Address) (bool, error) {
	var n int
	err := ix.queryRow(ctx, `SELECT COUNT(*) FROM forge_team_members WHERE org_id = $1 AND user_address = $2`, int64(org), u.Hex()).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("read membership: %w", err)
	}
	return n > 0, nil
}

// IsTeamMember says whether u is in team.
func (ix *Index) IsTeamMember(ctx context.Context, team uint64, u common.Address) (bool, error) {
	var n int
	err := ix.queryRow(ctx, `SELECT COUNT(*) FROM forge_team_members WHERE team_id = $1 AND user_address = $2`, int64(team), u.Hex()).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("read team membership: %w", err)
	}
	return n > 0, nil
}

// Team is a projected team.
type Team struct {
	ID               uint64   `json:"id"`
	Org              uint64   `json:"org"`
	Name             string   `json:"name"`
	Description      string   `json:"description"`
	Permission       string   `json:"permission"`
	Units            []string `json:"units"`
	IncludesAllRepos bool     `json:"includesAllRepos"`
	CanCreateOrgRepo bool     `json:"canCreateOrgRepo"`
	Members          uint64   `json:"members"`
}

const teamColumns = `t.id, t.org_id, t.name, t.description, t.permission, t.units, t.includes_all_repos, t.can_create_org_repo, t.members`

func scanTeam(row scanner) (Team, error) {
	var t Team
	var id, org, members int64
	var units string
	if err := row.Scan(&id, &org, &t.Name, &t.Description, &t.Permission, &units, &t.IncludesAllRepos, &t.CanCreateOrgRepo, &members); err != nil {
		return t, err
	}
	t.ID, t.Org, t.Members = uint64(id), uint64(org), uint64(members)
	if err := json.Unmarshal([]byte(units), &t.Units); err != nil {
		return t, fmt.Errorf("decode units of team %d: %w", t.ID, err)
	}
	return t, nil
}

// TeamByID reads a team.
func (ix *Index) TeamByID(ctx context.Context, id uint64) (Team, error) {
	t, err := scanTeam(ix.queryRow(ctx, `SELECT `+teamColumns+` FROM forge_teams t WHERE t.id = $1`, int64(id)))
	if errors.Is(err, sql.ErrNoRows) {
		return Team{}, notFound("team %d does not exist", id)
	}
	if err != nil {
		return Team{}, fmt.Errorf("read team %d: %w", id, err)
	}
	return t, nil
}

// TeamFilter narrows a team list; every field is optional.
type TeamFilter struct {
	Org    uint64
	Member *common.Address
	Repo   uint64
	// Query is a substring of the name (and, with InDescription, of the
	// description), any case.
	Query         string
	InDescription bool
}

// Teams lists the teams f selects, by organization and name.
func (ix *Index) Teams(ctx context.Context, f TeamFilter, p Page) ([]Team, int64, error) {
	var where []string
	var args []any
	arg := func(v any) string { args = append(args, v); return fmt.Sprintf("$%d", len(args)) }
	if f.Org != 0 {
		where = append(where, "t.org_id = "+arg(int64(f.Org)))
	}
	if f.Member != nil {
		where = append(where, "EXISTS (SELECT 1 FROM forge_team_members m WHERE m.team_id = t.id AND m.user_address = "+arg(f.Member.Hex())+")")
	}
	if f.Repo != 0 {
		where = append(where, "(t.includes_all_repos OR EXISTS (SELECT 1 FROM forge_team_repos tr WHERE tr.team_id = t.id AND tr.repo_id = "+arg(int64(f.Repo))+"))")
	}
	if f.Query != "" {
		q := arg("%" + likeEscape(strings.ToLower(f.Query)) + "%")
		cond := `t.lower_name LIKE ` + q + ` ESCAPE '\'`
		if f.InDescription {
			cond = "(" + cond + ` OR lower(t.description) LIKE ` + q + ` ESCAPE '\')`
		}
		where = append(where, cond)
	}
	out := []Team{}
	total, err := ix.listPage(ctx, teamColumns, "forge_teams t", "forge_teams t", strings.Join(where, " AND "), "t.org_id, t.lower_name, t.id", args, p,
		func(rows *sql.Rows) error {
			t, err := scanTeam(rows)
			out = append(out, t)
			return err
		})
	if err != nil {
		return nil, 0, fmt.Errorf("list teams: %w", err)
	}
	return out, total, nil
}

// TeamRepos lists the repositories a team holds (all its organization's
// for a team that includes all), by name.
func (ix *Index) TeamRepos(ctx context.Context, t Team, p Page) ([]Repo, int64, error) {
	where := `r.id IN (SELECT repo_id FROM forge_team_repos WHERE team_id = $1)`
	args := []any{int64(t.ID)}
	if t.IncludesAllRepos {
		where = `r.owner = (SELECT address FROM forge_orgs WHERE id = $1)`
		args = []any{int64(t.Org)}
	}
	out := []Repo{}
	total, err := ix.listPage(ctx, repoColumns, repoFrom, "forge_repos r", where, "r.lower_name, r.id", args, p, func(rows *sql.Rows) error {
		r, err := scanRepo(rows)
		out = append(out, r)
		return err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("list repositories of team %d: %w", t.ID, err)
	}
	return out, total, nil
}

// teamPermission is the best permission u's teams give on r, owned by an
// organization, by the forge module's rule (forge.TeamPerm).
func (ix *Index) teamPermission(ctx context.Context, r Repo, u common.Address) (forge.Perm, error) {
	return remember(ctx, ix, readKey("team-permission", "", r.ID, u.Hex()), func(ctx context.Context) (forge.Perm, error) {
		rows, err := ix.query(ctx, `SELECT t.permission FROM forge_teams t
			JOIN forge_team_members m ON m.team_id = t.id AND m.user_address = $1
			JOIN forge_orgs o ON o.id = t.org_id AND o.address = $2
			WHERE t.includes_all_repos OR EXISTS (SELECT 1 FROM forge_team_repos tr WHERE tr.team_id = t.id AND tr.repo_id = $3)`,
			u.Hex(), r.Owner.Address, int64(r.ID))
		if err != nil {
			return forge.PermNone, err
		}
		defer rows.Close()
		best := forge.PermNone
		for rows.Next() {
			var perm string
			if err := rows.Scan(&perm); err != nil {
				return forge.PermNone, err
			}
			best = max(best, forge.TeamPerm(perm))
		}
		return best, rows.Err()
	})
}

// TeamHolds says whether team t has access to repository r.
func (ix *Index) TeamHolds(ctx context.Context, t Team, r Repo) (bool, error) {
	if t.IncludesAllRepos {
		o, ok, err := ix.OrgAt(ctx, r.OwnerAddress())
		return ok && o.ID == t.Org, err
	}
	var n int
	err := ix.queryRow(ctx, `SELECT COUNT(*) FROM forge_team_repos WHERE team_id = $1 AND repo_id = $2`, int64(t.ID), int64(r.ID)).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("read repositories of team %d: %w", t.ID, err)
	}
	return n > 0, nil
}
