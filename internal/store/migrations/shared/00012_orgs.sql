-- +goose Up
-- Organizations and teams, projected by internal/index from the chain's
-- org.* and team.* events (forge.Change.Orgs, Teams, TeamMembers,
-- TeamRepos). An organization's members are the members of its teams; its
-- name is also its account's username in chain_accounts, so /{org}/{repo}
-- resolves like a user's. Organizations live on chain only: a reindex
-- empties these tables and replays them.

CREATE TABLE forge_orgs (
    id BIGINT PRIMARY KEY,
    address TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    lower_name TEXT NOT NULL UNIQUE,
    full_name TEXT NOT NULL,
    description TEXT NOT NULL,
    website TEXT NOT NULL,
    location TEXT NOT NULL,
    visibility TEXT NOT NULL,
    owners_team BIGINT NOT NULL,
    repos BIGINT NOT NULL,
    created_height BIGINT NOT NULL,
    created_time_ns BIGINT NOT NULL,
    updated_height BIGINT NOT NULL
);

CREATE TABLE forge_teams (
    id BIGINT PRIMARY KEY,
    org_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    lower_name TEXT NOT NULL,
    description TEXT NOT NULL,
    permission TEXT NOT NULL,
    -- JSON array of Gitea unit names (repo.code, repo.issues, ...)
    units TEXT NOT NULL,
    includes_all_repos BOOLEAN NOT NULL,
    can_create_org_repo BOOLEAN NOT NULL,
    members BIGINT NOT NULL
);
CREATE UNIQUE INDEX forge_teams_org_name ON forge_teams (org_id, lower_name);

CREATE TABLE forge_team_members (
    team_id BIGINT NOT NULL,
    org_id BIGINT NOT NULL,
    user_address TEXT NOT NULL,
    PRIMARY KEY (team_id, user_address)
);
CREATE INDEX forge_team_members_user ON forge_team_members (user_address, org_id);

CREATE TABLE forge_team_repos (
    team_id BIGINT NOT NULL,
    org_id BIGINT NOT NULL,
    repo_id BIGINT NOT NULL,
    PRIMARY KEY (team_id, repo_id)
);
CREATE INDEX forge_team_repos_repo ON forge_team_repos (repo_id);

-- +goose Down
DROP TABLE forge_team_repos;
DROP TABLE forge_team_members;
DROP TABLE forge_teams;
DROP TABLE forge_orgs;
