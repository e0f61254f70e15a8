package convert

import (
	"github.com/dforge/dforge/internal/gitea/structs"
	"github.com/dforge/dforge/internal/index"
)

// Repo is Gitea's Repository of rec, owned by owner, with what the record
// and the site decide: its URLs, counters and Gitea's settings dForge has
// one answer to. The API adds the caller's permission, the SSH URL and
// what this node holds of its git data.
func Repo(site string, owner structs.User, rec index.Repo) structs.Repository {
	full := owner.Login + "/" + rec.Name
	j := structs.Repository{
		ID: rec.ID, Owner: owner, Name: rec.Name, FullName: full, Description: rec.Description, Website: rec.Website, Private: rec.Private,
		Fork: rec.ForkOf != 0, HTMLURL: site + "/" + full, URL: site + "/api/v1/repos/" + full, CloneURL: site + "/" + full + ".git",
		StarsCount: rec.Stars, ForksCount: rec.Forks, WatchersCount: rec.Watchers, OpenIssuesCount: rec.OpenIssues,
		OpenPRCounter: rec.OpenPulls, DefaultBranch: rec.DefaultBranch, CreatedAt: rec.Created, UpdatedAt: rec.Updated,
		HasIssues: true, HasPullRequests: true, AllowMergeCommits: true, AllowRebase: true, AllowSquashMerge: true,
		AllowRebaseExplicit: true, AllowFastForward: true, LanguagesURL: site + "/api/v1/repos/" + full + "/languages", Link: "/" + full,
		ObjectFormatName: "sha1", ArchivedAt: Unshown, ProjectsMode: "all",
		DefaultMergeStyle: "merge", ProtectedBranches: rec.ProtectedBranches, CreatedHeight: rec.CreatedHeight,
		UpdatedHeight: rec.UpdatedHeight, OnChain: !rec.Private, Signer: rec.Signer, Delegation: rec.Delegation,
	}
	if j.ProtectedBranches == nil {
		j.ProtectedBranches = []string{}
	}
	if j.Topics = rec.Topics; j.Topics == nil {
		j.Topics = []string{}
	}
	return j
}
