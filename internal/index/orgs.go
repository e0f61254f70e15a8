package index

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index/readdb"
)

// The organizations projection: forge_orgs, forge_teams and their members
// and repositories, written from forge.Change.Orgs, Teams, TeamMembers
// and TeamRepos. An organization's members are its teams' members.

var orgTables = []string{"forge_team_repos", "forge_team_members", "forge_teams", "forge_orgs"}

// resetOrgs empties the organizations: they live on chain only.
func resetOrgs(ctx context.Context, tx *readdb.WriteTx) error {
	for _, table := range orgTables {
		if _, err := tx.ExecContext(ctx, "DELETE FROM "+table); err != nil {
			return fmt.Errorf("empty %s: %w", table, err)
		}
	}
	return nil
}

func writeOrgs(ctx context.Context, tx *readdb.WriteTx, c forgeChange) error {
	for _, o := range c.change.Orgs {
		if o.Deleted {
			for _, table := range orgTables {
				col := "org_id"
				if table == "forge_orgs" {
					col = "id"
				}
				if _, err := tx.ExecContext(ctx, "DELETE FROM "+table+" WHERE "+col+" = $1", int64(o.ID)); err != nil {
					return fmt.Errorf("delete organization %d from %s: %w", o.ID, table, err)
				}
			}
			continue
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO forge_orgs (id, address, name, lower_name, full_name, description, website,
			location, visibility, owners_team, repos, created_height, created_time_ns, updated_height)
			VALUES ($1, $2, $3, lower($3), $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
			ON CONFLICT (id) DO UPDATE SET full_name = excluded.full_name, description = excluded.description,
			website = excluded.website, location = excluded.location, visibility = excluded.visibility,
			owners_team = excluded.owners_team, repos = excluded.repos, updated_height = excluded.updated_height`,
			int64(o.ID), o.Address.Hex(), o.Name, o.FullName, o.Description, o.Website, o.Location, o.Visibility,
			int64(o.OwnersTeam), int64(o.Repos), int64(o.CreatedHeight), c.timeNS, c.height)
		if err != nil {
			return fmt.Errorf("write organization %d: %w", o.ID, err)
		}
	}
	return nil
}

func writeTeams(ctx context.Context, tx *readdb.WriteTx, c forgeChange) error {
	for _, t := range c.change.Teams {
		if t.Deleted {
			for _, table := range []string{"forge_team_repos", "forge_team_members"} {
				if _, err := tx.ExecContext(ctx, "DELETE FROM "+table+" WHERE team_id = $1", int64(t.ID)); err != nil {
					return fmt.Errorf("delete team %d from %s: %w", t.ID, table, err)
				}
			}
			if _, err := tx.ExecContext(ctx, "DELETE FROM forge_teams WHERE id = $1", int64(t.ID)); err != nil {
				return fmt.Errorf("delete team %d: %w", t.ID, err)
			}
			continue
		}
		units, _ := json.Marshal(t.Units) // strings: cannot fail
		_, err := tx.ExecContext(ctx, `INSERT INTO forge_teams (id, org_id, name, lower_name, description, permission, units,
			includes_all_repos, can_create_org_repo, members)
			VALUES ($1, $2, $3, lower($3), $4, $5, $6, $7, $8, $9)
			ON CONFLICT (id) DO UPDATE SET name = excluded.name, lower_name = excluded.lower_name,
			description = excluded.description, permission = excluded.permission, units = excluded.units,
			includes_all_repos = excluded.includes_all_repos, can_create_org_repo = excluded.can_create_org_repo,
			members = excluded.members`,
			int64(t.ID), int64(t.Org), t.Name, t.Description, t.Permission, string(units), t.IncludesAllRepos,
			t.CanCreateOrgRepo, int64(t.Members))
		if err != nil {
			return fmt.Errorf("write team %d: %w", t.ID, err)
		}
	}
	return nil
}

func writeTeamMembers(ctx context.Context, tx *readdb.WriteTx, list []forge.TeamMember) error {
	for _, m := range list {
		var err error
		if m.On {
			_, err = tx.ExecContext(ctx, `INSERT INTO forge_team_members (team_id, org_id, user_address) VALUES ($1, $2, $3)
				ON CONFLICT (team_id, user_address) DO NOTHING`, int64(m.Team), int64(m.Org), m.User.Hex())
		} else {
			_, err = tx.ExecContext(ctx, `DELETE FROM forge_team_members WHERE team_id = $1 AND user_address = $2`, int64(m.Team), m.User.Hex())
		}
		if err != nil {
			return fmt.Errorf("write member of team %d: %w", m.Team, err)
		}
	}
	return nil
}

func writeTeamRepos(ctx context.Context, tx *readdb.WriteTx, list []forge.TeamRepo) error {
	for _, tr := range list {
		var err error
		if tr.On {
			_, err = tx.ExecContext(ctx, `INSERT INTO forge_team_repos (team_id, org_id, repo_id) VALUES ($1, $2, $3)
				ON CONFLICT (team_id, repo_id) DO NOTHING`, int64(tr.Team), int64(tr.Org), int64(tr.Repo))
		} else {
			_, err = tx.ExecContext(ctx, `DELETE FROM forge_team_repos WHERE team_id = $1 AND repo_id = $2`, int64(tr.Team), int64(tr.Repo))
		}
		if err != nil {
			return fmt.Errorf("write repository of team %d: %w", tr.Team, err)
		}
	}
	return nil
}
