package actions_test

import (
	"encoding/base64"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	runnerv1 "gitea.dev/actions-proto-go/runner/v1"

	"github.com/dforge/dforge/internal/forgetest"
)

const secretWorkflow = `on: push
jobs:
  use:
    runs-on: linux
    steps:
      - run: echo "$TOKEN"
`

// Secrets and variables set through the API at a user's level and a
// repository's reach a job's task, the repository's winning; the lists
// never show a secret's value, the database holds it sealed under the
// node's key, and a log line that carries one is stored masked.
func TestSecretsAndVariablesReachAJobMasked(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice := n.NewUser()
	repo := newRepo(n, alice, "sec")

	const repoToken, userToken, userOnly, multi = "repo-token-7f3a9c", "user-token-b2e481", "user-only-5d0c2e", "first-line-91ab\nsecond-line-c4d7"
	n.JSON("PUT", repo+"/actions/secrets/token", alice, map[string]string{"data": "first"}, http.StatusCreated, nil)
	n.JSON("PUT", repo+"/actions/secrets/TOKEN", alice, map[string]string{"data": repoToken}, http.StatusNoContent, nil)
	n.JSON("PUT", "/api/v1/user/actions/secrets/Token", alice, map[string]string{"data": userToken}, http.StatusCreated, nil)
	n.JSON("PUT", "/api/v1/user/actions/secrets/ONLY_USER", alice, map[string]string{"data": userOnly}, http.StatusCreated, nil)
	n.JSON("PUT", repo+"/actions/secrets/MULTI", alice, map[string]string{"data": multi, "description": "two lines"}, http.StatusCreated, nil)
	n.JSON("POST", "/api/v1/user/actions/variables/region", alice, map[string]string{"value": "eu-user"}, http.StatusCreated, nil)
	n.JSON("POST", "/api/v1/user/actions/variables/LEVEL", alice, map[string]string{"value": "user"}, http.StatusCreated, nil)
	n.JSON("POST", repo+"/actions/variables/REGION", alice, map[string]string{"value": "us-repo"}, http.StatusCreated, nil)
	n.JSON("POST", repo+"/actions/variables/OLD_NAME", alice, map[string]string{"value": "v1", "description": "d"}, http.StatusCreated, nil)
	n.JSON("PUT", repo+"/actions/variables/old_name", alice, map[string]string{"name": "new_name", "value": "v2"}, http.StatusNoContent, nil)

	// The lists: names, never values.
	var secrets []struct {
		Name, Description string
		CreatedAt         string `json:"created_at"`
	}
	res := n.JSON("GET", repo+"/actions/secrets", alice, nil, http.StatusOK, &secrets)
	if len(secrets) != 2 || secrets[0].Name != "MULTI" || secrets[0].Description != "two lines" || secrets[1].Name != "TOKEN" || secrets[1].CreatedAt == "" {
		t.Fatalf("the repository's secrets: %s", res.Body)
	}
	res = n.JSON("GET", "/api/v1/user/actions/secrets", alice, nil, http.StatusOK, nil)
	for _, v := range []string{repoToken, userToken, userOnly, "first-line"} {
		if strings.Contains(string(res.Body), v) {
			t.Fatalf("a list of secrets shows a value: %s", res.Body)
		}
	}
	var variable struct {
		OwnerID     int64 `json:"owner_id"`
		RepoID      int64 `json:"repo_id"`
		Name, Data  string
		Description string
	}
	n.JSON("GET", repo+"/actions/variables/NEW_NAME", alice, nil, http.StatusOK, &variable)
	if variable.Name != "NEW_NAME" || variable.Data != "v2" || variable.Description != "d" || variable.RepoID == 0 || variable.OwnerID != 0 {
		t.Fatalf("the renamed variable: %+v", variable)
	}
	n.JSON("GET", repo+"/actions/variables/OLD_NAME", alice, nil, http.StatusNotFound, nil)
	var vars []struct{ Name, Data string }
	n.JSON("GET", "/api/v1/user/actions/variables", alice, nil, http.StatusOK, &vars)
	if len(vars) != 2 || vars[0].Name != "LEVEL" || vars[1].Name != "REGION" || vars[1].Data != "eu-user" {
		t.Fatalf("the user's variables: %+v", vars)
	}

	// At rest: a key file of the owner's alone, and sealed rows.
	key, err := os.Stat(filepath.Join(n.Dir, "actions-secrets.key"))
	if err != nil || key.Mode().Perm() != 0o600 {
		t.Fatalf("the node's secret key file: %v %v", key, err)
	}
	rows, err := n.Store.DB().Query(`SELECT name, data FROM actions_secrets`)
	if err != nil {
		t.Fatal(err)
	}
	stored := 0
	for rows.Next() {
		var name, data string
		if err := rows.Scan(&name, &data); err != nil {
			t.Fatal(err)
		}
		raw, _ := base64.StdEncoding.DecodeString(data)
		for _, v := range []string{repoToken, userToken, userOnly, "first-line", "second-line"} {
			if strings.Contains(data, v) || strings.Contains(string(raw), v) {
				t.Fatalf("secret %s is stored in the clear: %q", name, data)
			}
		}
		stored++
	}
	rows.Close()
	if stored != 4 {
		t.Fatalf("%d secret rows stored, want 4", stored)
	}

	// A job's task carries them, the repository's over the user's.
	tok := runnerToken(n, alice, repo)
	r := register(t, n, tok, "linux:host")
	dir := n.Clone(n.Remote(alice, alice.Name(), "sec"))
	n.Commit(dir, "ci", map[string]string{".gitea/workflows/ci.yml": secretWorkflow})
	n.Git(dir, "push", "--quiet", "origin", "HEAD:main")
	task := r.fetch(30 * time.Second)
	if task == nil {
		t.Fatal("the job was not handed out")
	}
	want := map[string]string{"TOKEN": repoToken, "ONLY_USER": userOnly, "MULTI": multi}
	got := ownersSecrets(t, task)
	if len(got) != len(want) {
		t.Fatalf("the task's secrets: %d of them, want %d", len(got), len(want))
	}
	for k, v := range want {
		if got[k] != v {
			t.Fatalf("the task's secret %s is not the one set at the right level", k)
		}
	}
	if task.Vars["REGION"] != "us-repo" || task.Vars["LEVEL"] != "user" || task.Vars["NEW_NAME"] != "v2" || len(task.Vars) != 3 {
		t.Fatalf("the task's variables: %v", task.Vars)
	}

	// A runner that does not mask still leaves no secret in the log.
	r.finish(task, runnerv1.Result_RESULT_SUCCESS, "token is "+repoToken+".", "user: "+userOnly+userOnly, "second-line-c4d7", "region us-repo")
	var jobs struct{ Jobs []struct{ ID int64 } }
	var runs struct {
		Runs []struct{ ID int64 } `json:"workflow_runs"`
	}
	n.JSON("GET", repo+"/actions/runs", alice, nil, http.StatusOK, &runs)
	if len(runs.Runs) != 1 {
		t.Fatalf("runs: %+v", runs)
	}
	n.JSON("GET", repo+"/actions/runs/"+itoa(runs.Runs[0].ID)+"/jobs", alice, nil, http.StatusOK, &jobs)
	log := n.Call("GET", repo+"/actions/jobs/"+itoa(jobs.Jobs[0].ID)+"/logs", alice, nil)
	if log.Status != http.StatusOK {
		t.Fatalf("the job's log: %d %s", log.Status, log.Body)
	}
	text := string(log.Body)
	for _, line := range []string{"token is ***.", "user: ******", "***", "region us-repo"} {
		if !strings.Contains(text, line) {
			t.Fatalf("the log lacks %q:\n%s", line, text)
		}
	}
	for _, v := range []string{repoToken, userOnly, "second-line"} {
		if strings.Contains(text, v) {
			t.Fatalf("the log shows a secret:\n%s", text)
		}
	}

	// Deleted, a secret is gone; twice is a 404.
	n.JSON("DELETE", repo+"/actions/secrets/token", alice, nil, http.StatusNoContent, nil)
	n.JSON("DELETE", repo+"/actions/secrets/TOKEN", alice, nil, http.StatusNotFound, nil)
	n.JSON("DELETE", repo+"/actions/variables/new_name", alice, nil, http.StatusNoContent, nil)
}

// Bad names and sizes are 422s naming the field, a name taken in any case
// a 409, and only owners reach a repository's or an organization's
// secrets and variables.
func TestSecretsRefuseBadInputAndStrangers(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice, bob := n.NewUser(), n.NewUser()
	n.JSON("POST", "/api/v1/user/repos", alice, map[string]any{"name": "open"}, http.StatusCreated, nil)
	n.JSON("POST", "/api/v1/user/repos", alice, map[string]any{"name": "hidden", "private": true}, http.StatusCreated, nil)
	repo := "/api/v1/repos/" + alice.Name() + "/open"

	var fail struct{ Message, Code, Field string }
	for _, name := range []string{"1abc", "a-b", "GITHUB_TOKEN", "gitea_thing", strings.Repeat("A", 256)} {
		n.JSON("PUT", repo+"/actions/secrets/"+name, alice, map[string]string{"data": "x"}, http.StatusUnprocessableEntity, &fail)
		if !strings.Contains(fail.Message, "name") {
			t.Fatalf("a bad name %q: %+v", name, fail)
		}
		n.JSON("POST", repo+"/actions/variables/"+name, alice, map[string]string{"value": "x"}, http.StatusUnprocessableEntity, nil)
	}
	n.JSON("PUT", repo+"/actions/secrets/BIG", alice, map[string]string{"data": strings.Repeat("x", 64<<10+1)}, http.StatusUnprocessableEntity, &fail)
	if !strings.Contains(fail.Message, "data") {
		t.Fatalf("a secret too large: %+v", fail)
	}
	n.JSON("PUT", repo+"/actions/secrets/EMPTY", alice, map[string]string{"data": ""}, http.StatusUnprocessableEntity, &fail)
	n.JSON("PUT", repo+"/actions/secrets/EMPTY", alice, map[string]any{}, http.StatusUnprocessableEntity, nil)
	n.JSON("POST", repo+"/actions/variables/CI", alice, map[string]string{"value": "x"}, http.StatusUnprocessableEntity, nil)
	n.JSON("POST", repo+"/actions/variables/BIG", alice, map[string]string{"value": strings.Repeat("x", 64<<10+1)}, http.StatusUnprocessableEntity, &fail)
	if !strings.Contains(fail.Message, "value") {
		t.Fatalf("a variable too large: %+v", fail)
	}
	// The largest allowed value fits.
	n.JSON("PUT", repo+"/actions/secrets/BIG", alice, map[string]string{"data": strings.Repeat("x", 64<<10)}, http.StatusCreated, nil)

	n.JSON("POST", repo+"/actions/variables/Region", alice, map[string]string{"value": "a"}, http.StatusCreated, nil)
	n.JSON("POST", repo+"/actions/variables/REGION", alice, map[string]string{"value": "b"}, http.StatusConflict, nil)
	n.JSON("POST", repo+"/actions/variables/zone", alice, map[string]string{"value": "c"}, http.StatusCreated, nil)
	n.JSON("PUT", repo+"/actions/variables/zone", alice, map[string]string{"name": "region", "value": "d"}, http.StatusConflict, nil)
	n.JSON("PUT", repo+"/actions/variables/absent", alice, map[string]string{"value": "d"}, http.StatusNotFound, nil)
	var v struct{ Data string }
	n.JSON("GET", repo+"/actions/variables/region", alice, nil, http.StatusOK, &v)
	if v.Data != "a" {
		t.Fatalf("a refused write changed the variable: %+v", v)
	}

	// Strangers: 403 on a public repository, 404 on a private one.
	for _, c := range []struct{ method, path string }{
		{"GET", repo + "/actions/secrets"}, {"PUT", repo + "/actions/secrets/X"}, {"DELETE", repo + "/actions/secrets/BIG"},
		{"GET", repo + "/actions/variables"}, {"GET", repo + "/actions/variables/REGION"}, {"POST", repo + "/actions/variables/Y"},
	} {
		if res := n.Call(c.method, c.path, bob, map[string]string{"data": "x", "value": "x"}); res.Status != http.StatusForbidden {
			t.Fatalf("a stranger's %s %s: %d %s", c.method, c.path, res.Status, res.Body)
		}
	}
	hidden := "/api/v1/repos/" + alice.Name() + "/hidden/actions/secrets"
	n.JSON("GET", hidden, bob, nil, http.StatusNotFound, nil)
	n.JSON("PUT", hidden+"/X", bob, map[string]string{"data": "x"}, http.StatusNotFound, nil)
	n.JSON("GET", repo+"/actions/secrets", nil, nil, http.StatusUnauthorized, nil)

	// An organization's: its owners'.
	n.JSON("POST", "/api/v1/orgs", alice, map[string]string{"username": "acme-" + strings.ToLower(alice.Name())}, http.StatusCreated, nil)
	org := "/api/v1/orgs/acme-" + strings.ToLower(alice.Name())
	n.JSON("PUT", org+"/actions/secrets/DEPLOY", alice, map[string]string{"data": "org-deploy-key"}, http.StatusCreated, nil)
	n.JSON("POST", org+"/actions/variables/ENV", alice, map[string]string{"value": "prod"}, http.StatusCreated, nil)
	var secrets []struct{ Name string }
	n.JSON("GET", org+"/actions/secrets", alice, nil, http.StatusOK, &secrets)
	if len(secrets) != 1 || secrets[0].Name != "DEPLOY" {
		t.Fatalf("the organization's secrets: %+v", secrets)
	}
	var ov struct {
		OwnerID int64 `json:"owner_id"`
		RepoID  int64 `json:"repo_id"`
		Data    string
	}
	n.JSON("GET", org+"/actions/variables/env", alice, nil, http.StatusOK, &ov)
	if ov.Data != "prod" || ov.RepoID != 0 {
		t.Fatalf("the organization's variable: %+v", ov)
	}
	n.JSON("GET", org+"/actions/secrets", bob, nil, http.StatusForbidden, nil)
	n.JSON("PUT", org+"/actions/secrets/DEPLOY", bob, map[string]string{"data": "x"}, http.StatusForbidden, nil)
	n.JSON("GET", org+"/actions/variables", bob, nil, http.StatusForbidden, nil)

	// A user's own are theirs alone.
	n.JSON("PUT", "/api/v1/user/actions/secrets/MINE", alice, map[string]string{"data": "alice's"}, http.StatusCreated, nil)
	var bobs []struct{ Name string }
	n.JSON("GET", "/api/v1/user/actions/secrets", bob, nil, http.StatusOK, &bobs)
	if len(bobs) != 0 {
		t.Fatalf("bob sees secrets: %+v", bobs)
	}
	n.JSON("DELETE", "/api/v1/user/actions/secrets/MINE", bob, nil, http.StatusNotFound, nil)
}

// An organization's secrets and variables reach its repositories' jobs,
// under a repository's own of the same name, and no other owner's do.
func TestAnOrganizationsSecretsReachItsRepositoriesJobs(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice := n.NewUser()
	orgName := "org-" + strings.ToLower(alice.Name())
	n.JSON("POST", "/api/v1/orgs", alice, map[string]string{"username": orgName}, http.StatusCreated, nil)
	n.JSON("POST", "/api/v1/orgs/"+orgName+"/repos", alice, map[string]any{"name": "app", "auto_init": true, "default_branch": "main"}, http.StatusCreated, nil)
	repo := "/api/v1/repos/" + orgName + "/app"
	org := "/api/v1/orgs/" + orgName
	n.JSON("PUT", org+"/actions/secrets/DEPLOY", alice, map[string]string{"data": "org-deploy-3e1f"}, http.StatusCreated, nil)
	n.JSON("PUT", org+"/actions/secrets/SHARED", alice, map[string]string{"data": "org-shared-8a2b"}, http.StatusCreated, nil)
	n.JSON("PUT", repo+"/actions/secrets/shared", alice, map[string]string{"data": "repo-shared-6c9d"}, http.StatusCreated, nil)
	n.JSON("PUT", "/api/v1/user/actions/secrets/ALICE_ONLY", alice, map[string]string{"data": "not-the-org-s"}, http.StatusCreated, nil)
	n.JSON("POST", org+"/actions/variables/ENV", alice, map[string]string{"value": "prod"}, http.StatusCreated, nil)

	tok := runnerToken(n, alice, repo)
	r := register(t, n, tok, "linux:host")
	dir := n.Clone(n.Remote(alice, orgName, "app"))
	n.Commit(dir, "ci", map[string]string{".gitea/workflows/ci.yml": secretWorkflow})
	n.Git(dir, "push", "--quiet", "origin", "HEAD:main")
	task := r.fetch(30 * time.Second)
	if task == nil {
		t.Fatal("the organization's repository's job was not handed out")
	}
	if got := ownersSecrets(t, task); len(got) != 2 || got["DEPLOY"] != "org-deploy-3e1f" || got["SHARED"] != "repo-shared-6c9d" {
		t.Fatalf("the task's secrets are not the organization's under the repository's (%d of them)", len(got))
	}
	if len(task.Vars) != 1 || task.Vars["ENV"] != "prod" {
		t.Fatalf("the task's variables: %v", task.Vars)
	}
}

// ownersSecrets are the secrets of task that owners set: the task's own
// without the job token, which every task carries as GITHUB_TOKEN and
// GITEA_TOKEN (checked to be the token of its context).
func ownersSecrets(t *testing.T, task *runnerv1.Task) map[string]string {
	t.Helper()
	out := maps.Clone(task.Secrets)
	token := task.Context.AsMap()["token"]
	for _, name := range []string{"GITHUB_TOKEN", "GITEA_TOKEN"} {
		if out[name] == "" || out[name] != token {
			t.Fatalf("the task's %s is not its job token", name)
		}
		delete(out, name)
	}
	return out
}
