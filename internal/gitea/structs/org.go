package structs

// Team is Gitea's Team.
type Team struct {
	ID                      int64             `json:"id"`
	Name                    string            `json:"name"`
	Description             string            `json:"description"`
	Organization            *Organization     `json:"organization"`
	IncludesAllRepositories bool              `json:"includes_all_repositories"`
	Permission              string            `json:"permission"`
	Units                   []string          `json:"units"`
	UnitsMap                map[string]string `json:"units_map"`
	CanCreateOrgRepo        bool              `json:"can_create_org_repo"`
	MembersCount            uint64            `json:"members_count"`
}

// Organization is Gitea's Organization, with the address it owns by.
type Organization struct {
	ID                        int64  `json:"id"`
	Name                      string `json:"name"`
	UserName                  string `json:"username"`
	FullName                  string `json:"full_name"`
	Email                     string `json:"email"`
	AvatarURL                 string `json:"avatar_url"`
	Description               string `json:"description"`
	Website                   string `json:"website"`
	Location                  string `json:"location"`
	Visibility                string `json:"visibility"`
	RepoAdminChangeTeamAccess bool   `json:"repo_admin_change_team_access"`
	WalletAddress             string `json:"wallet_address"`
	RepoCount                 uint64 `json:"repo_count"`
	HTMLURL                   string `json:"html_url"`
}
