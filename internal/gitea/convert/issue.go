package convert

import (
	"strconv"
	"strings"
	"time"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/gitea/structs"
	"github.com/dforge/dforge/internal/index"
)

// Label is Gitea's Label of l, in the repository whose API URL is
// repoAPI; the color is hex without '#', as Gitea gives it.
func Label(repoAPI string, l index.Label) structs.Label {
	return structs.Label{ID: l.ID, Name: l.Name, Color: strings.TrimPrefix(l.Color, "#"), Description: l.Description, Exclusive: l.Exclusive,
		URL: repoAPI + "/labels/" + strconv.FormatUint(l.ID, 10), Signer: l.Signer, Delegation: l.Delegation}
}

// Labels are Label of each, [] for none.
func Labels(repoAPI string, list []index.Label) []structs.Label {
	out := make([]structs.Label, len(list))
	for i, l := range list {
		out[i] = Label(repoAPI, l)
	}
	return out
}

// Milestone is Gitea's Milestone of m: a time it has not had is null.
func Milestone(m index.Milestone) structs.Milestone {
	j := structs.Milestone{
		ID: m.ID, Title: m.Title, Description: m.Description, State: m.State, OpenIssues: m.OpenIssues,
		ClosedIssues: m.ClosedIssues, Created: m.Created, Updated: optional(m.Updated), Closed: optional(m.Closed),
		Signer: m.Signer, Delegation: m.Delegation,
	}
	if m.Due != 0 {
		due := time.Unix(m.Due, 0).UTC().Format(time.RFC3339)
		j.Due = &due
	}
	return j
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Global issue ids: Gitea's issues have one id across repositories, which
// the spec's /issue/:id and /pr/:id pages use. The chain numbers issues
// per repository, so the id packs the repository id and the number (24
// bits: 16.7 million per repository) into an integer JavaScript reads
// exactly (below 2^53); private repositories (ids from 2^48) take the top
// half. Ids that cannot be packed are 0.
const (
	issueNumberBits = 24
	maxPackedRepo   = 1 << 28
	privateIssueBit = int64(1) << 52
)

// IssueID is the global id of issue number of repository repo, the id
// of Gitea's Issue and PullRequest in API answers and payloads alike.
func IssueID(repo, number uint64) int64 {
	if number >= 1<<issueNumberBits {
		return 0
	}
	flag := int64(0)
	if chainforge.IsPrivateID(repo) {
		repo -= chainforge.PrivateIDBase
		flag = privateIssueBit
	}
	if repo >= maxPackedRepo {
		return 0
	}
	return flag | int64(repo<<issueNumberBits|number)
}

// ParseIssueID undoes IssueID.
func ParseIssueID(id int64) (repo, number uint64, ok bool) {
	if id <= 0 || id >= privateIssueBit<<1 {
		return 0, 0, false
	}
	private := id&privateIssueBit != 0
	v := uint64(id &^ privateIssueBit)
	repo, number = v>>issueNumberBits, v&(1<<issueNumberBits-1)
	if private {
		repo += chainforge.PrivateIDBase
	}
	return repo, number, number > 0 && (repo > 0)
}
