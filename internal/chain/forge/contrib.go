package forge

import (
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/rewards"
)

// Contributions: the forge reports accepted work to the rewards module in
// Change.Contributions; it alone knows who merged, who wrote, who reported.
// Private stores report nothing: private work is never on chain.

// MaxPushCommits bounds the commits one repo.push reports for rewards.
const MaxPushCommits = 1000

// PushCommit is a commit a push brought to the default branch whose
// author maps to a dForge account (the node maps the commit's email).
type PushCommit struct {
	SHA    string         `json:"sha"`
	Author common.Address `json:"author"`
}

func contributorKey(repo uint64, a common.Address) []byte {
	return key([]byte("contributor"), u64(repo), a.Bytes())
}

// addContributor counts a as one of r's distinct contributors (an account
// that pushed to it or had a pull request merged).
func (s *session) addContributor(r *Repo, a common.Address) error {
	if s.env.Private {
		return nil
	}
	k := contributorKey(r.ID, a)
	v, err := s.kv.Get(k)
	if err != nil || v != nil {
		return err
	}
	r.Contributors++
	return s.kv.Set(k, []byte{1})
}

// contribute reports one contribution to r, with r's standing now.
func (s *session) contribute(r *Repo, kind string, who common.Address, number uint64, sha, reason string) {
	if s.env.Private || r.Private {
		return
	}
	s.change.Contributions = append(s.change.Contributions, rewards.Contribution{
		Kind: kind, Account: who, Repo: r.ID, Number: number, SHA: sha, Reason: reason,
		RepoStars: r.Stars, RepoContributors: r.Contributors,
	})
}

// issueClosedAsCompleted reports the reporter and the closer of an issue
// closed as completed; nothing is paid when they are the same account.
func (s *session) issueClosedAsCompleted(r *Repo, is *Issue, closer common.Address) {
	reason := ""
	if is.Author == closer {
		reason = rewards.ReasonOwnIssue
	}
	s.contribute(r, rewards.KindIssueReporter, is.Author, is.Number, "", reason)
	s.contribute(r, rewards.KindIssueCloser, closer, is.Number, "", reason)
}

// closingRefs finds "closes #N" (fix, fixes, fixed, close, closed,
// resolve, resolves, resolved; any case) in a pull request's text, in
// order and without repeats, as GitHub and Gitea read them.
func closingRefs(text string) []uint64 {
	words := strings.Fields(strings.ToLower(text))
	var out []uint64
	for i := 0; i+1 < len(words); i++ {
		switch strings.TrimSuffix(words[i], ":") {
		case "close", "closes", "closed", "fix", "fixes", "fixed", "resolve", "resolves", "resolved":
		default:
			continue
		}
		ref := strings.TrimRight(words[i+1], ".,;:!?)")
		n, ok := issueNumber(ref)
		if ok && !containsUint(out, n) {
			out = append(out, n)
		}
	}
	return out
}

func issueNumber(ref string) (uint64, bool) {
	digits, ok := strings.CutPrefix(ref, "#")
	if !ok || digits == "" || len(digits) > 12 {
		return 0, false
	}
	var n uint64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	return n, n > 0
}

func containsUint(s []uint64, n uint64) bool {
	for _, v := range s {
		if v == n {
			return true
		}
	}
	return false
}
