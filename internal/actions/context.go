package actions

import (
	"strconv"
	"strings"

	"github.com/nektos/act/pkg/model"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index"
)

// ghContext is the github context a job sees (`${{ github.* }}`), with the
// push event's payload in Gitea's shape as far as workflows read it.
type ghContext map[string]any

// gitContext is the context of trigger t's run of workflow file on repo.
func gitContext(repo index.Repo, t trigger, workflow string) ghContext {
	full := repo.Owner.Username + "/" + repo.Name
	refName, refType := t.Ref, ""
	if b, ok := branchOf(t.Ref); ok {
		refName, refType = b, "branch"
	} else if tg, ok := tagOf(t.Ref); ok {
		refName, refType = tg, "tag"
	}
	before := t.Before
	if before == "" {
		before = chainforge.ZeroSHA
	}
	event := map[string]any{
		"ref": t.Ref, "before": before, "after": t.After,
		"repository": map[string]any{"name": repo.Name, "full_name": full, "private": repo.Private,
			"default_branch": repo.DefaultBranch, "owner": map[string]any{"login": repo.Owner.Username, "username": repo.Owner.Username}},
		"pusher":      map[string]any{"login": t.Who, "username": t.Who},
		"sender":      map[string]any{"login": t.Who, "username": t.Who},
		"head_commit": map[string]any{"id": t.After},
	}
	headRef, baseRef := "", ""
	p := t.Payload
	person := func(a string) map[string]any { return map[string]any{"login": a, "username": a} }
	switch {
	case t.Inputs != nil:
		event = map[string]any{"ref": t.Ref, "inputs": t.Inputs, "workflow": workflow,
			"repository": event["repository"], "sender": event["sender"]}
	case t.Event == "pull_request":
		headRef, baseRef = p.HeadBranch, p.BaseBranch
		event = map[string]any{"action": p.Action, "number": p.Number, "repository": event["repository"], "sender": event["sender"],
			"pull_request": map[string]any{"number": p.Number, "title": p.Title, "body": p.Body, "user": person(p.Author), "merged": p.Merged,
				"head": map[string]any{"ref": p.HeadBranch, "sha": t.After}, "base": map[string]any{"ref": p.BaseBranch, "sha": t.Before}}}
	case t.Event == "issues" || t.Event == "issue_comment":
		issue := map[string]any{"number": p.Number, "title": p.Title, "body": p.Body, "user": person(p.Author)}
		if p.IsPull {
			issue["pull_request"] = map[string]any{}
		}
		event = map[string]any{"action": p.Action, "issue": issue, "repository": event["repository"], "sender": event["sender"]}
		if t.Event == "issue_comment" {
			event["comment"] = map[string]any{"id": p.CommentID, "body": p.Comment, "user": person(t.Who)}
		}
	case t.Event == "release":
		event = map[string]any{"action": p.Action, "repository": event["repository"], "sender": event["sender"],
			"release": map[string]any{"tag_name": p.Tag, "name": p.Title, "body": p.Body, "prerelease": p.Prerelease, "draft": false}}
	}
	return ghContext{
		"event": event, "event_name": t.Event, "workflow": workflow, "actor": t.Who,
		"repository": full, "repository_owner": repo.Owner.Username,
		"sha": t.After, "ref": t.Ref, "ref_name": refName, "ref_type": refType,
		"head_ref": headRef, "base_ref": baseRef, "retention_days": "90",
	}
}

// toModel is the context for the parser's expressions (run-name,
// runs-on, matrices).
func (c ghContext) toModel() *model.GithubContext {
	str := func(k string) string { s, _ := c[k].(string); return s }
	ev, _ := c["event"].(map[string]any)
	return &model.GithubContext{
		Event: ev, EventName: str("event_name"), Workflow: str("workflow"), Actor: str("actor"),
		Repository: str("repository"), RepositoryOwner: str("repository_owner"), Sha: str("sha"),
		Ref: str("ref"), RefName: str("ref_name"), RefType: str("ref_type"), RunID: str("run_id"), RunNumber: str("run_number"),
	}
}

// forTask is the context of a job's task: the run's, with the run, the
// job, the node's addresses and the job's runtime token (artifacts).
func (c ghContext) forTask(runID, runNumber int64, jobKey, baseURL, runtimeToken string) map[string]any {
	out := make(map[string]any, len(c)+8)
	for k, v := range c {
		out[k] = v
	}
	base := strings.TrimRight(baseURL, "/")
	out["run_id"] = strconv.FormatInt(runID, 10)
	out["run_number"] = strconv.FormatInt(runNumber, 10)
	out["run_attempt"] = "1"
	out["job"] = jobKey
	out["server_url"] = base
	out["api_url"] = base + "/api/v1"
	// One token serves the job: the runner passes it to the steps as
	// ACTIONS_RUNTIME_TOKEN (artifacts) and as github.token, and masks it;
	// the git server lets it read the run's repository while the job runs
	// (JobRepository), so a job clones a private repository too.
	out["token"] = runtimeToken
	out["gitea_runtime_token"] = runtimeToken
	return out
}
