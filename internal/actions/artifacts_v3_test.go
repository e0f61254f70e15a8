package actions_test

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
)

// v3 calls the v3 artifact service as @actions/artifact v1 does: the
// runtime token as a Bearer, JSON or a file's bytes.
func (j *job) v3(method, u, token string, header http.Header, body []byte) (int, []byte) {
	j.t.Helper()
	req, _ := http.NewRequest(method, u, bytes.NewReader(body))
	for k, v := range header {
		req.Header[k] = v
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		j.t.Fatalf("%s %s: %v", method, u, err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	return res.StatusCode, out
}

// chunk is one PUT of a file's bytes at [start, start+len(data)) of total.
func (j *job) chunk(container, item string, data []byte, start, total int, gz bool) int {
	j.t.Helper()
	h := http.Header{"Content-Type": {"application/octet-stream"}, "Content-Range": {fmt.Sprintf("bytes %d-%d/%d", start, start+len(data)-1, total)}}
	if gz {
		h.Set("Content-Encoding", "gzip")
	}
	st, _ := j.v3("PUT", container+"?itemPath="+item, j.token, h, data)
	return st
}

func gzipped(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// upload-artifact@v3's protocol: a container, its files in chunks (one
// gzip, one in two chunks, one empty), a finalizing PATCH; then
// download-artifact@v3's list, items and files, and v4's client and the
// REST API read the same artifact as a zip. What a client gets wrong is
// a 4xx and changes nothing.
func TestArtifactsV3(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice := n.NewUser()
	j, _, repo := startJob(t, n, alice, "art3", false)
	base := n.URL + "/api/actions_pipeline/_apis/pipelines/workflows/" + j.run + "/artifacts?api-version=6.0-preview"
	jsonH := http.Header{"Content-Type": {"application/json"}}

	if st, _ := j.v3("POST", base, "", jsonH, []byte(`{"Type":"actions_storage","Name":"dist"}`)); st != http.StatusUnauthorized {
		t.Fatalf("create without a token: %d", st)
	}
	other := strings.Replace(base, "/workflows/"+j.run+"/", "/workflows/999999/", 1)
	if st, _ := j.v3("POST", other, j.token, jsonH, []byte(`{"Type":"actions_storage","Name":"dist"}`)); st != http.StatusForbidden {
		t.Fatalf("create in another run: %d", st)
	}
	if st, body := j.v3("POST", base, j.token, jsonH, []byte(`{"Type":"actions_storage","Name":"a/b"}`)); st != http.StatusBadRequest {
		t.Fatalf("create a bad name: %d %s", st, body)
	}
	st, body := j.v3("POST", base, j.token, jsonH, []byte(`{"Type":"actions_storage","Name":"dist","RetentionDays":3}`))
	var created struct {
		FileContainerResourceURL string `json:"fileContainerResourceUrl"`
	}
	if st != http.StatusOK || json.Unmarshal(body, &created) != nil || created.FileContainerResourceURL == "" {
		t.Fatalf("create: %d %s", st, body)
	}
	container := created.FileContainerResourceURL

	small := []byte("hello\n")
	text := bytes.Repeat([]byte("dforge "), 20_000)
	big := make([]byte, 3<<20)
	_, _ = rand.Read(big)
	half := len(big) / 2
	for what, st := range map[string]int{
		"small":         j.chunk(container, "dist/a.txt", small, 0, len(small), false),
		"gzip":          j.chunk(container, "dist/sub/text.txt", gzipped(t, text), 0, len(gzipped(t, text)), true),
		"second half":   j.chunk(container, "dist/sub/big.bin", big[half:], half, len(big), false),
		"first half":    j.chunk(container, "dist/sub/big.bin", big[:half], 0, len(big), false),
		"empty":         j.chunk(container, "dist/empty.txt", nil, 0, 0, false),
		"outside":       j.chunk(container, "dist/../x", small, 0, len(small), false),
		"other name":    j.chunk(container, "other/a.txt", small, 0, len(small), false),
		"short chunk":   j.v3put(container+"?itemPath=dist/c.txt", http.Header{"Content-Range": {"bytes 0-9/10"}}, small[:3]),
		"a bad range":   j.v3put(container+"?itemPath=dist/d.txt", http.Header{"Content-Range": {"bytes 5-1/9"}}, small),
		"without range": j.v3put(container+"?itemPath=dist/d.txt", http.Header{}, small),
	} {
		want := http.StatusOK
		if !strings.Contains("small gzip second half first half empty", what) {
			want = http.StatusBadRequest
		}
		if st != want {
			t.Errorf("PUT %s: %d, want %d", what, st, want)
		}
	}
	// A wrong Size is refused, and the artifact stays pending.
	total := len(small) + len(text) + len(big)
	finalize := base + "&artifactName=dist"
	if st, body := j.v3("PATCH", finalize, j.token, jsonH, []byte(fmt.Sprintf(`{"Size":%d}`, total+1))); st != http.StatusBadRequest {
		t.Fatalf("finalize with a wrong size: %d %s", st, body)
	}
	// Re-created, the pending artifact is taken up again with what it has.
	if st, body := j.v3("POST", base, j.token, jsonH, []byte(`{"Type":"actions_storage","Name":"dist"}`)); st != http.StatusOK || !strings.Contains(string(body), container) {
		t.Fatalf("create again while pending: %d %s", st, body)
	}
	if st := j.chunk(container, "dist/c.txt", small, 0, len(small), false); st != http.StatusOK {
		t.Fatalf("PUT c.txt whole: %d", st)
	}
	total += len(small)
	if st, body := j.v3("PATCH", finalize, j.token, jsonH, []byte(fmt.Sprintf(`{"Size":%d}`, total))); st != http.StatusOK {
		t.Fatalf("finalize: %d %s", st, body)
	}
	if st, _ := j.v3("PATCH", finalize, j.token, jsonH, []byte(fmt.Sprintf(`{"Size":%d}`, total))); st != http.StatusConflict {
		t.Fatalf("finalize twice: %d", st)
	}
	// v3 adds to a finished artifact: another upload of the name (a
	// matrix's jobs, or a later step) adds its files, and a file of the
	// same path is replaced.
	if st, body := j.v3("POST", base, j.token, jsonH, []byte(`{"Type":"actions_storage","Name":"dist"}`)); st != http.StatusOK || !strings.Contains(string(body), container) {
		t.Fatalf("create again once finished: %d %s", st, body)
	}
	later := []byte("later\n")
	for _, item := range []string{"dist/late.txt", "dist/a.txt"} {
		if st := j.chunk(container, item, later, 0, len(later), false); st != http.StatusOK {
			t.Fatalf("PUT %s after the finalize: %d", item, st)
		}
	}
	if st, body := j.v3("PATCH", finalize, j.token, jsonH, []byte(fmt.Sprintf(`{"Size":%d}`, 2*len(later)))); st != http.StatusOK {
		t.Fatalf("finalize the added files: %d %s", st, body)
	}

	// download-artifact@v3: list, items, each file.
	st, body = j.v3("GET", base, j.token, nil, nil)
	var list struct {
		Count int
		Value []struct {
			Name                     string
			FileContainerResourceURL string `json:"fileContainerResourceUrl"`
		}
	}
	if st != http.StatusOK || json.Unmarshal(body, &list) != nil || list.Count != 1 || list.Value[0].Name != "dist" {
		t.Fatalf("list: %d %s", st, body)
	}
	st, body = j.v3("GET", list.Value[0].FileContainerResourceURL+"?itemPath=dist", j.token, nil, nil)
	var items struct {
		Value []struct {
			Path, ItemType, ContentLocation string
			FileLength                      int64
		}
	}
	if st != http.StatusOK || json.Unmarshal(body, &items) != nil {
		t.Fatalf("items: %d %s", st, body)
	}
	want := map[string][]byte{"dist/a.txt": later, "dist/c.txt": small, "dist/empty.txt": {}, "dist/late.txt": later, "dist/sub/big.bin": big, "dist/sub/text.txt": text}
	if len(items.Value) != len(want) {
		t.Fatalf("items: %s", body)
	}
	for _, it := range items.Value {
		st, got := j.v3("GET", it.ContentLocation, j.token, nil, nil)
		if st != http.StatusOK || it.ItemType != "file" || it.FileLength != int64(len(want[it.Path])) || !bytes.Equal(got, want[it.Path]) {
			t.Fatalf("%s: %d, %d bytes (%d listed), want %d", it.Path, st, len(got), it.FileLength, len(want[it.Path]))
		}
	}
	if st, _ := j.v3("GET", items.Value[0].ContentLocation, "", nil, nil); st != http.StatusUnauthorized {
		t.Fatalf("a file without the token: %d", st)
	}
	if st, _ := j.v3("GET", strings.Replace(items.Value[0].ContentLocation, "itemPath=dist/", "itemPath=dist/../../", 1), j.token, nil, nil); st != http.StatusBadRequest {
		t.Fatalf("a file outside the artifact: %d", st)
	}

	// v4's client lists it with its zip's digest, and the REST API gives
	// the zip, holding the same files.
	out := j.must("ListArtifacts", map[string]any{})
	arts, _ := out["artifacts"].([]any)
	if len(arts) != 1 || !strings.HasPrefix(fmt.Sprint(arts[0].(map[string]any)["digest"]), "sha256:") {
		t.Fatalf("v4's list: %v", out)
	}
	var rest struct {
		Artifacts []struct{ ID int64 } `json:"artifacts"`
	}
	n.JSON("GET", repo+"/actions/artifacts", alice, nil, http.StatusOK, &rest)
	if len(rest.Artifacts) != 1 {
		t.Fatalf("REST artifacts: %+v", rest)
	}
	zipRes := n.Call("GET", fmt.Sprintf("%s/actions/artifacts/%d/zip", repo, rest.Artifacts[0].ID), nil, nil)
	if zipRes.Status != http.StatusFound {
		t.Fatalf("REST zip: %d", zipRes.Status)
	}
	st, _, zipped := get(t, zipRes.Header.Get("Location"))
	if st != http.StatusOK {
		t.Fatalf("the REST zip's redirect: %d", st)
	}
	if digest := fmt.Sprint(arts[0].(map[string]any)["digest"]); digest != "sha256:"+sha(zipped) {
		t.Fatalf("v4's digest %s is not the zip's (it was made again when files were added)", digest)
	}
	zr, err := zip.NewReader(bytes.NewReader(zipped), int64(len(zipped)))
	if err != nil {
		t.Fatalf("the REST zip: %v", err)
	}
	for _, f := range zr.File {
		rc, _ := f.Open()
		got, _ := io.ReadAll(rc)
		rc.Close()
		if !bytes.Equal(got, want["dist/"+f.Name]) {
			t.Fatalf("the zip's %s differs", f.Name)
		}
	}
	if len(zr.File) != len(want) {
		t.Fatalf("the zip holds %d files, want %d", len(zr.File), len(want))
	}
}

func (j *job) v3put(u string, h http.Header, body []byte) int {
	st, _ := j.v3("PUT", u, j.token, h, body)
	return st
}
