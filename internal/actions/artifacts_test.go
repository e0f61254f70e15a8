package actions_test

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	runnerv1 "gitea.dev/actions-proto-go/runner/v1"

	"github.com/dforge/dforge/internal/forgetest"
)

const artifactWorkflow = `on: push
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: echo build
`

// job is a running job as its steps see it: the results service's
// address and the runtime token, with the backend ids the token names.
type job struct {
	t          *testing.T
	n          *forgetest.Node
	task       *runnerv1.Task
	token      string
	run, jobID string
}

// startJob pushes a one-job workflow to owner's repository name and
// fetches its task with a new runner.
func startJob(t *testing.T, n *forgetest.Node, owner *forgetest.User, name string, private bool) (*job, *runner, string) {
	t.Helper()
	n.JSON("POST", "/api/v1/user/repos", owner, map[string]any{"name": name, "auto_init": true, "default_branch": "main", "private": private}, http.StatusCreated, nil)
	repo := "/api/v1/repos/" + owner.Name() + "/" + name
	r := register(t, n, runnerToken(n, owner, repo), "ubuntu-latest:host")
	dir := n.Clone(n.Remote(owner, owner.Name(), name))
	n.Commit(dir, "ci", map[string]string{".gitea/workflows/build.yml": artifactWorkflow})
	n.Git(dir, "push", "--quiet", "origin", "HEAD:main")
	task := r.fetch(30 * time.Second)
	if task == nil {
		t.Fatal("the job was not handed out")
	}
	ctx := task.Context.AsMap()
	tok, _ := ctx["gitea_runtime_token"].(string)
	j := &job{t: t, n: n, task: task, token: tok, run: ctx["run_id"].(string), jobID: strconv.FormatInt(task.Id, 10)}
	return j, r, repo
}

// scope is the runtime token's scp claim, decoded as @actions/artifact
// decodes it (jwt-decode: the payload, unverified).
func scope(t *testing.T, tok string) string {
	t.Helper()
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		t.Fatalf("the runtime token is not a JWT: %q", tok)
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatalf("decode the token's payload: %v", err)
	}
	var c struct{ Scp string }
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatalf("decode the token's claims: %v", err)
	}
	return c.Scp
}

// twirp calls the artifact service as the client does, with token.
func (j *job) twirp(method, token string, body map[string]any) (int, map[string]any) {
	j.t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", j.n.URL+"/twirp/github.actions.results.api.v1.ArtifactService/"+method, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		j.t.Fatalf("%s: %v", method, err)
	}
	defer res.Body.Close()
	var out map[string]any
	raw, _ := io.ReadAll(res.Body)
	if err := json.Unmarshal(raw, &out); err != nil {
		j.t.Fatalf("%s answered %d, not JSON: %s", method, res.StatusCode, raw)
	}
	return res.StatusCode, out
}

// ids are the backend ids every request carries, under the proto field
// names @actions/artifact sends (protobuf-ts's useProtoFieldName).
func (j *job) ids(more map[string]any) map[string]any {
	out := map[string]any{"workflow_run_backend_id": j.run, "workflow_job_run_backend_id": j.jobID}
	for k, v := range more {
		out[k] = v
	}
	return out
}

func (j *job) must(method string, body map[string]any) map[string]any {
	j.t.Helper()
	status, out := j.twirp(method, j.token, j.ids(body))
	if status != http.StatusOK {
		j.t.Fatalf("%s: %d %v", method, status, out)
	}
	return out
}

func put(t *testing.T, u string, header http.Header, body []byte) int {
	t.Helper()
	req, _ := http.NewRequest("PUT", u, bytes.NewReader(body))
	for k, v := range header {
		req.Header[k] = v
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("PUT %s: %v", u, err)
	}
	res.Body.Close()
	return res.StatusCode
}

func get(t *testing.T, u string) (int, string, []byte) {
	t.Helper()
	res, err := http.Get(u)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header.Get("Content-Type"), b
}

// zipOf is a zip of files, as upload-artifact makes.
func zipOf(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, content := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write([]byte(content))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// uploadBlocks sends data to the signed URL as Azure's uploadStream does:
// blocks of chunk bytes, then the block list.
func uploadBlocks(t *testing.T, signed string, data []byte, chunk int) {
	t.Helper()
	var list strings.Builder
	list.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><BlockList>`)
	for i := 0; i*chunk < len(data); i++ {
		id := base64.StdEncoding.EncodeToString([]byte(fmt.Sprintf("block-%06d", i)))
		part := data[i*chunk : min((i+1)*chunk, len(data))]
		if st := put(t, signed+"&comp=block&blockid="+url.QueryEscape(id), nil, part); st != http.StatusCreated {
			t.Fatalf("put block %d: %d", i, st)
		}
		list.WriteString("<Latest>" + id + "</Latest>")
	}
	list.WriteString("</BlockList>")
	if st := put(t, signed+"&comp=blocklist", http.Header{"Content-Type": {"application/xml"}}, []byte(list.String())); st != http.StatusCreated {
		t.Fatalf("put the block list: %d", st)
	}
}

func sha(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

type restArtifact struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Size        int64  `json:"size_in_bytes"`
	Expired     bool   `json:"expired"`
	CID         string `json:"cid"`
	ExpiresAt   string `json:"expires_at"`
	Download    string `json:"archive_download_url"`
	WorkflowRun struct {
		ID      int64  `json:"id"`
		HeadSHA string `json:"head_sha"`
	} `json:"workflow_run"`
}

// A job uploads an artifact as upload-artifact@v4 does (create, blocks,
// block list, finalize with the hash) and downloads it as
// download-artifact@v4 does (list, signed URL, GET): the same bytes. A
// public repository's artifact is a file in the blockstore, served by its
// CID; tokens, signatures and hashes that do not match are refused; the
// retention sweep removes an expired artifact's file; the token dies with
// its job.
func TestAnArtifactGoesUpAndComesBack(t *testing.T) {
	t.Parallel()
	for store, opts := range forgetest.Stores() { // PostgreSQL too, when DFORGE_TEST_PG names one
		t.Run(store, func(t *testing.T) {
			t.Parallel()
			artifactRoundTrip(t, forgetest.Start(t, opts...))
		})
	}
}

func artifactRoundTrip(t *testing.T, n *forgetest.Node) {
	alice := n.NewUser()
	j, r, repo := startJob(t, n, alice, "art", false)
	if want := "Actions.Results:" + j.run + ":" + j.jobID; scope(t, j.token) != want {
		t.Fatalf("the token's scope is %q, want %q", scope(t, j.token), want)
	}

	// Refused: no token, a forged one, another run, a bad name.
	if st, _ := j.twirp("CreateArtifact", "", j.ids(map[string]any{"name": "dist", "version": 4})); st != http.StatusUnauthorized {
		t.Fatalf("create without a token: %d", st)
	}
	forged := j.token[:strings.LastIndex(j.token, ".")+1] + base64.RawURLEncoding.EncodeToString(make([]byte, 32))
	if st, _ := j.twirp("CreateArtifact", forged, j.ids(map[string]any{"name": "dist", "version": 4})); st != http.StatusUnauthorized {
		t.Fatalf("create with a forged token: %d", st)
	}
	if st, _ := j.twirp("CreateArtifact", j.token, map[string]any{"workflow_run_backend_id": "999999", "workflow_job_run_backend_id": j.jobID, "name": "dist"}); st != http.StatusForbidden {
		t.Fatalf("create in another run: %d", st)
	}
	for _, bad := range []string{"", "a/b", `a\b`, strings.Repeat("x", 300)} {
		if st, out := j.twirp("CreateArtifact", j.token, j.ids(map[string]any{"name": bad, "version": 4})); st != http.StatusBadRequest {
			t.Fatalf("create %q: %d %v", bad, st, out)
		}
	}

	// Upload in three blocks.
	data := zipOf(t, map[string]string{"bin/app": strings.Repeat("compiled ", 30000), "README": "hello"})
	created := j.must("CreateArtifact", map[string]any{"name": "dist", "version": 4, "expires_at": time.Now().Add(7 * 24 * time.Hour).UTC().Format(time.RFC3339Nano)})
	signed, _ := created["signedUploadUrl"].(string)
	if created["ok"] != true || !strings.HasPrefix(signed, n.URL) {
		t.Fatalf("create answered %v", created)
	}
	if st := put(t, strings.Replace(signed, "sig=", "sig=00", 1)+"&comp=block&blockid=eA==", nil, []byte("x")); st != http.StatusForbidden {
		t.Fatalf("a block to a tampered URL: %d", st)
	}
	uploadBlocks(t, signed, data, len(data)/3+1)

	// A wrong hash, or size, finalizes nothing: the artifact is not listed.
	// (Fields also come in lowerCamelCase, and wrappers as {"value"}.)
	if st, _ := j.twirp("FinalizeArtifact", j.token, map[string]any{"workflowRunBackendId": j.run, "workflowJobRunBackendId": j.jobID, "name": "dist",
		"size": strconv.Itoa(len(data)), "hash": map[string]any{"value": "sha256:" + sha([]byte("other"))}}); st != http.StatusBadRequest {
		t.Fatalf("finalize with a wrong hash: %d", st)
	}
	if st, _ := j.twirp("FinalizeArtifact", j.token, j.ids(map[string]any{"name": "dist", "size": strconv.Itoa(len(data) + 1)})); st != http.StatusBadRequest {
		t.Fatalf("finalize with a wrong size: %d", st)
	}
	if list := j.must("ListArtifacts", nil)["artifacts"].([]any); len(list) != 0 {
		t.Fatalf("an unfinalized artifact is listed: %v", list)
	}
	fin := j.must("FinalizeArtifact", map[string]any{"name": "dist", "size": strconv.Itoa(len(data)), "hash": "sha256:" + sha(data)})
	if fin["ok"] != true || fin["artifactId"] == "" {
		t.Fatalf("finalize answered %v", fin)
	}

	// download-artifact: list (by name), then the signed URL.
	list := j.must("ListArtifacts", map[string]any{"name_filter": "dist"})["artifacts"].([]any)
	if len(list) != 1 {
		t.Fatalf("listed %v", list)
	}
	got := list[0].(map[string]any)
	if got["name"] != "dist" || got["size"] != strconv.Itoa(len(data)) || got["databaseId"] != fin["artifactId"] || got["workflowRunBackendId"] != j.run {
		t.Fatalf("listed %v", got)
	}
	// protobuf-ts reads a Timestamp with 0, 3, 6 or 9 fraction digits only;
	// download-artifact compares the digest with "sha256:" and the zip's hex.
	if !regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3}|\.\d{6}|\.\d{9})?Z$`).MatchString(got["createdAt"].(string)) || got["digest"] != "sha256:"+sha(data) {
		t.Fatalf("createdAt %v, digest %v", got["createdAt"], got["digest"])
	}
	if byID := j.must("ListArtifacts", map[string]any{"id_filter": fin["artifactId"]})["artifacts"].([]any); len(byID) != 1 {
		t.Fatalf("listed by id: %v", byID)
	}
	if other := j.must("ListArtifacts", map[string]any{"name_filter": "other"})["artifacts"].([]any); len(other) != 0 {
		t.Fatalf("listed by another name: %v", other)
	}
	signedGet := j.must("GetSignedArtifactURL", map[string]any{"name": "dist"})["signedUrl"].(string)
	if st, ct, body := get(t, signedGet); st != http.StatusOK || ct != "application/zip" || !bytes.Equal(body, data) {
		t.Fatalf("download: %d %s, %d bytes (want %d)", st, ct, len(body), len(data))
	}
	if st, _, _ := get(t, strings.Replace(signedGet, "/download?", "/upload?", 1)); st == http.StatusOK {
		t.Fatal("a download signature opens the upload URL")
	}
	if st, _, _ := get(t, strings.Replace(signedGet, "expires=", "expires=1", 1)); st != http.StatusForbidden {
		t.Fatalf("a download with a changed expiry: %d", st)
	}
	// The same name again is a conflict, and a finalized artifact takes no more data.
	if st, _ := j.twirp("CreateArtifact", j.token, j.ids(map[string]any{"name": "dist", "version": 4})); st != http.StatusConflict {
		t.Fatalf("create a second dist: %d", st)
	}
	if st := put(t, signed, http.Header{"X-Ms-Blob-Type": {"BlockBlob"}}, []byte("more")); st != http.StatusConflict {
		t.Fatalf("a PUT after finalize: %d", st)
	}

	// The REST API shows it with its CID, which the blockstore serves.
	var rest struct {
		Artifacts []restArtifact
		Total     int64 `json:"total_count"`
	}
	n.JSON("GET", repo+"/actions/artifacts?name=dist", nil, nil, http.StatusOK, &rest)
	if rest.Total != 1 || rest.Artifacts[0].Size != int64(len(data)) || rest.Artifacts[0].CID == "" || rest.Artifacts[0].Expired ||
		strconv.FormatInt(rest.Artifacts[0].WorkflowRun.ID, 10) != j.run {
		t.Fatalf("REST list: %+v", rest)
	}
	if res := n.Call("GET", "/ipfs/"+rest.Artifacts[0].CID+"?format=raw", nil, nil); res.Status != http.StatusOK || !bytes.Equal(res.Body, data) {
		t.Fatalf("the gateway serves the artifact's CID: %d, %d bytes", res.Status, len(res.Body))
	}
	zipRes := n.Call("GET", repo+"/actions/artifacts/"+fin["artifactId"].(string)+"/zip", nil, nil)
	if zipRes.Status != http.StatusFound {
		t.Fatalf("REST zip: %d", zipRes.Status)
	}
	if st, _, body := get(t, zipRes.Header.Get("Location")); st != http.StatusOK || !bytes.Equal(body, data) {
		t.Fatalf("the REST zip's redirect: %d", st)
	}

	// A small artifact in one PUT, kept a few seconds: the sweep expires it.
	small := zipOf(t, map[string]string{"log.txt": "short"})
	created = j.must("CreateArtifact", map[string]any{"name": "logs", "version": 4, "expires_at": time.Now().Add(3 * time.Second).UTC().Format(time.RFC3339Nano)})
	if st := put(t, created["signedUploadUrl"].(string), http.Header{"X-Ms-Blob-Type": {"BlockBlob"}}, small); st != http.StatusCreated {
		t.Fatalf("a whole PUT: %d", st)
	}
	fin = j.must("FinalizeArtifact", map[string]any{"name": "logs", "size": len(small)})
	smallURL := j.must("GetSignedArtifactURL", map[string]any{"name": "logs"})["signedUrl"].(string)
	if st, _, body := get(t, smallURL); st != http.StatusOK || !bytes.Equal(body, small) {
		t.Fatalf("the small artifact: %d", st)
	}
	var one restArtifact
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
		n.JSON("GET", repo+"/actions/artifacts/"+fin["artifactId"].(string), nil, nil, http.StatusOK, &one)
		if one.Expired {
			break
		}
	}
	if !one.Expired {
		t.Fatal("the sweep did not expire the artifact")
	}
	if st, _, _ := get(t, smallURL); st != http.StatusNotFound {
		t.Fatalf("an expired artifact's URL: %d", st)
	}
	if res := n.Call("GET", repo+"/actions/artifacts/"+fin["artifactId"].(string)+"/zip", nil, nil); res.Status != http.StatusNotFound {
		t.Fatalf("an expired artifact's zip: %d", res.Status)
	}

	// The token dies with its job.
	r.finish(j.task, runnerv1.Result_RESULT_SUCCESS, "done")
	if st, _ := j.twirp("ListArtifacts", j.token, j.ids(nil)); st != http.StatusUnauthorized {
		t.Fatalf("list after the job ended: %d", st)
	}
}

// A private repository's artifact stays off blocks and is 404 to
// strangers; a writer deletes it.
func TestAPrivateRepositorysArtifactIsHidden(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice, mallory := n.NewUser(), n.NewUser()
	j, _, repo := startJob(t, n, alice, "secret", true)
	data := zipOf(t, map[string]string{"key": "private bytes"})
	created := j.must("CreateArtifact", map[string]any{"name": "dist", "version": 4})
	uploadBlocks(t, created["signedUploadUrl"].(string), data, 64)
	fin := j.must("FinalizeArtifact", map[string]any{"name": "dist", "size": strconv.Itoa(len(data)), "hash": "sha256:" + sha(data)})
	path := repo + "/actions/artifacts/" + fin["artifactId"].(string)

	var mine restArtifact
	n.JSON("GET", path, alice, nil, http.StatusOK, &mine)
	if mine.CID != "" || mine.Size != int64(len(data)) || mine.Name != "dist" {
		t.Fatalf("the owner sees %+v", mine)
	}
	exp, err := time.Parse(time.RFC3339, mine.ExpiresAt)
	if err != nil || exp.Before(time.Now().Add(89*24*time.Hour)) || exp.After(time.Now().Add(91*24*time.Hour)) {
		t.Fatalf("the default retention: expires %s (%v)", mine.ExpiresAt, err)
	}
	for _, u := range []*forgetest.User{nil, mallory} {
		for _, p := range []string{path, path + "/zip", repo + "/actions/artifacts", repo + "/actions/runs/" + j.run + "/artifacts"} {
			if res := n.Call("GET", p, u, nil); res.Status != http.StatusNotFound {
				t.Fatalf("GET %s as a stranger: %d", p, res.Status)
			}
		}
	}
	if res := n.Call("DELETE", path, mallory, nil); res.Status != http.StatusNotFound {
		t.Fatalf("a stranger deletes: %d", res.Status)
	}
	var runList struct {
		Artifacts []restArtifact
	}
	n.JSON("GET", repo+"/actions/runs/"+j.run+"/artifacts", alice, nil, http.StatusOK, &runList)
	if len(runList.Artifacts) != 1 || runList.Artifacts[0].ID != mine.ID {
		t.Fatalf("the run's artifacts: %+v", runList)
	}
	n.JSON("DELETE", path, alice, nil, http.StatusNoContent, nil)
	n.JSON("GET", path, alice, nil, http.StatusNotFound, nil)
	if list := j.must("ListArtifacts", nil)["artifacts"].([]any); len(list) != 0 {
		t.Fatalf("a deleted artifact is listed: %v", list)
	}
}
