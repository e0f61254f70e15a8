package api_test

import (
	"context"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/codesearch"
	"github.com/dforge/dforge/internal/forgetest"
)

// Code search: files pushed with git are found with their lines and the
// matched words' places, by language, in one repository or all; a push
// re-indexes only what it changed; a private repository is found by its
// owner only.

type codeSearchAnswer struct {
	Total int `json:"total"`
	Items []struct {
		Repository struct {
			ID       uint64 `json:"id"`
			FullName string `json:"full_name"`
		} `json:"repository"`
		Path     string `json:"path"`
		Language string `json:"language"`
		HTMLURL  string `json:"html_url"`
		Lines    []struct {
			Number int      `json:"number"`
			Text   string   `json:"text"`
			Ranges [][2]int `json:"ranges"`
		} `json:"lines"`
	} `json:"items"`
	Languages []struct {
		Name  string `json:"name"`
		Count int    `json:"count"`
	} `json:"languages"`
}

// searchCode asks path until check holds (indexing follows the push), or
// fails.
func searchCode(t *testing.T, n *forgetest.Node, u *forgetest.User, path string, check func(codeSearchAnswer) bool) codeSearchAnswer {
	t.Helper()
	var got codeSearchAnswer
	for deadline := time.Now().Add(20 * time.Second); ; {
		got = codeSearchAnswer{}
		n.JSON("GET", path, u, nil, http.StatusOK, &got)
		if check(got) {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET %s: %+v", path, got)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestCodeSearch(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice, bob := n.NewUser(), n.NewUser()
	owner := alice.Name()
	n.JSON("POST", "/api/v1/user/repos", alice, map[string]any{"name": "lathe"}, http.StatusCreated, nil)
	wt := n.Clone(n.Remote(alice, owner, "lathe"))
	n.Git(wt, "checkout", "-q", "-b", "main")
	n.Commit(wt, "Add the code", map[string]string{
		"main.go":        "package main\n\nfunc main() {\n\tspindle := turnSpindle(42)\n\tfmt.Println(spindle)\n}\n",
		"web/app.ts":     "export const spindle = 1;\n",
		"README.md":      "# Lathe\n\nTurns wood.\n",
		"vendor/x/x.go":  "package x // spindle\n",
		"logo.png":       "\x89PNG\x00\x00spindle",
		"util/helper.go": "package util\n\n// Carve shapes chisel work.\nfunc Carve() {}\n",
	})
	n.Git(wt, "push", "-q", "origin", "main")
	repoPath := "/api/v1/repos/" + owner + "/lathe/search/code?q="

	// 1. A word is found on its lines, the word's places marked.
	got := searchCode(t, n, nil, repoPath+"spindle", func(a codeSearchAnswer) bool { return a.Total == 2 })
	var goFile *struct {
		Number int      `json:"number"`
		Text   string   `json:"text"`
		Ranges [][2]int `json:"ranges"`
	}
	for i, it := range got.Items {
		if it.Repository.FullName != owner+"/lathe" {
			t.Errorf("item %d in %q", i, it.Repository.FullName)
		}
		if it.Path == "main.go" {
			if it.Language != "Go" || !strings.HasSuffix(it.HTMLURL, "/"+owner+"/lathe/src/main.go#L4") || len(it.Lines) != 2 {
				t.Fatalf("main.go hit: %+v", it)
			}
			goFile = &got.Items[i].Lines[0]
		}
	}
	counts := map[string]int{}
	for _, l := range got.Languages {
		counts[l.Name] = l.Count
	}
	if len(counts) != 2 || counts["Go"] != 1 || counts["TypeScript"] != 1 {
		t.Errorf("the languages of an unfiltered search: %+v", got.Languages)
	}
	if goFile == nil {
		t.Fatalf("main.go not found (vendor and binary files are not indexed): %+v", got)
	}
	if goFile.Number != 4 || len(goFile.Ranges) != 1 {
		t.Fatalf("line %+v", goFile)
	}
	if r := goFile.Ranges[0]; goFile.Text[r[0]:r[1]] != "spindle" {
		t.Errorf("range %v marks %q", r, goFile.Text[r[0]:r[1]])
	}
	// A path's words count with the content's: helper is only in a
	// file's name, util and carve one in its path, one in its content.
	for _, q := range []string{"helper", "util%20carve"} {
		searchCode(t, n, nil, repoPath+q, func(a codeSearchAnswer) bool { return a.Total == 1 && a.Items[0].Path == "util/helper.go" })
	}
	// Words inside code count: println in fmt.Println.
	searchCode(t, n, nil, repoPath+"println", func(a codeSearchAnswer) bool { return a.Total == 1 && a.Items[0].Path == "main.go" })

	// 2. The language filter; the languages of every match are offered.
	got = searchCode(t, n, nil, repoPath+"spindle&language=TypeScript", func(a codeSearchAnswer) bool { return a.Total == 1 })
	if got.Items[0].Path != "web/app.ts" || len(got.Languages) != 2 {
		t.Errorf("TypeScript only: %+v", got)
	}

	// 3. A push changing one file re-indexes that file alone: its old
	// words are gone, its new ones found, even by a search asked (and its
	// answer kept) before the push.
	searchCode(t, n, nil, repoPath+"chisel", func(a codeSearchAnswer) bool { return a.Total == 1 })
	n.Commit(wt, "Rename the helper", map[string]string{"util/helper.go": "package util\n\n// Whittle shapes gouge work.\nfunc Whittle() {}\n"})
	head := strings.TrimSpace(n.Git(wt, "rev-parse", "HEAD"))
	n.Git(wt, "push", "-q", "origin", "main")
	searchCode(t, n, nil, repoPath+"gouge", func(a codeSearchAnswer) bool { return a.Total == 1 })
	searchCode(t, n, nil, repoPath+"chisel", func(a codeSearchAnswer) bool { return a.Total == 0 })
	// The run is recorded just after its documents are searchable.
	run, _ := n.Node.CodeSearch.LastRun(got.Items[0].Repository.ID)
	for deadline := time.Now().Add(10 * time.Second); run.Commit != head && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		run, _ = n.Node.CodeSearch.LastRun(got.Items[0].Repository.ID)
	}
	if run.Commit != head || run.Full || run.Indexed != 1 || run.Deleted != 0 {
		t.Errorf("the second push's run: %+v", run)
	}

	// 4. A private repository: its owner finds its code, nobody else does,
	// not even in the count.
	n.JSON("POST", "/api/v1/user/repos", alice, map[string]any{"name": "secret", "private": true}, http.StatusCreated, nil)
	pwt := n.Clone(n.Remote(alice, owner, "secret"))
	n.Git(pwt, "checkout", "-q", "-b", "main")
	n.Commit(pwt, "Add", map[string]string{"plan.go": "package plan // spindle gearbox\n"})
	n.Git(pwt, "push", "-q", "origin", "main")
	searchCode(t, n, alice, "/api/v1/search/code?q=gearbox", func(a codeSearchAnswer) bool {
		return a.Total == 1 && a.Items[0].Repository.FullName == owner+"/secret"
	})
	for _, u := range []*forgetest.User{nil, bob} {
		searchCode(t, n, u, "/api/v1/search/code?q=gearbox", func(a codeSearchAnswer) bool { return a.Total == 0 && len(a.Items) == 0 })
		got = searchCode(t, n, u, "/api/v1/search/code?q=spindle&repo="+url.QueryEscape(owner+"/lathe"), func(a codeSearchAnswer) bool { return true })
		if got.Total != 2 {
			t.Errorf("repo filter: %+v", got)
		}
		if res := n.Call("GET", "/api/v1/repos/"+owner+"/secret/search/code?q=gearbox", u, nil); res.Status != http.StatusNotFound {
			t.Errorf("a stranger's search of the private repository: %d", res.Status)
		}
	}
	searchCode(t, n, alice, "/api/v1/repos/"+owner+"/secret/search/code?q=gearbox", func(a codeSearchAnswer) bool { return a.Total == 1 })
	// Made a collaborator, bob finds what he was refused a moment ago.
	n.JSON("PUT", "/api/v1/repos/"+owner+"/secret/collaborators/"+bob.Name(), alice, map[string]string{"permission": "read"}, http.StatusNoContent, nil)
	searchCode(t, n, bob, "/api/v1/search/code?q=gearbox", func(a codeSearchAnswer) bool {
		return a.Total == 1 && a.Items[0].Repository.FullName == owner+"/secret"
	})

	// 5. A deleted repository's files are gone from the index.
	if res := n.WalletCall("DELETE", "/api/v1/repos/"+owner+"/lathe", alice, nil); res.Status != http.StatusNoContent {
		t.Fatalf("delete the repository: %d %s", res.Status, res.Body)
	}
	searchCode(t, n, nil, "/api/v1/search/code?q=spindle", func(a codeSearchAnswer) bool { return a.Total == 0 })
	searchCode(t, n, alice, "/api/v1/search/code?q=spindle", func(a codeSearchAnswer) bool {
		return a.Total == 1 && a.Items[0].Repository.FullName == owner+"/secret"
	})

	// 6. No words: 422.
	for _, q := range []string{"", "%20", "(.)"} {
		if res := n.Call("GET", "/api/v1/search/code?q="+q, nil, nil); res.Status != http.StatusUnprocessableEntity {
			t.Errorf("q=%q: %d %s", q, res.Status, res.Body)
		}
	}
}

// A node that starts indexes what changed while it was down: every
// repository the first time, then only the files pushed since.
func TestCodeSearchCatchesUpAtStart(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice := n.NewUser()
	n.JSON("POST", "/api/v1/user/repos", alice, map[string]any{"name": "mill"}, http.StatusCreated, nil)
	wt := n.Clone(n.Remote(alice, alice.Name(), "mill"))
	n.Git(wt, "checkout", "-q", "-b", "main")
	n.Commit(wt, "Add", map[string]string{"a.go": "package a // grindstone\n", "b.go": "package b\n"})
	n.Git(wt, "push", "-q", "origin", "main")
	searchCode(t, n, nil, "/api/v1/search/code?q=grindstone", func(a codeSearchAnswer) bool { return a.Total == 1 })

	// A second index of the same node, as after a start with none.
	dir := filepath.Join(t.TempDir(), "codesearch")
	start := func() (*codesearch.Service, func()) {
		s, err := codesearch.Open(codesearch.Config{Dir: dir, Index: n.Index, RepoDir: n.Node.Repos.Dir})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			s.Run(ctx)
		}()
		return s, func() {
			cancel()
			<-done
			s.Close()
		}
	}
	waitRun := func(s *codesearch.Service, id uint64, commit string) codesearch.Run {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if run, _ := s.LastRun(id); run.Commit == commit {
				return run
			}
		}
		t.Fatalf("repository %d never indexed at %s", id, commit)
		return codesearch.Run{}
	}
	var repo struct {
		ID uint64 `json:"id"`
	}
	n.JSON("GET", "/api/v1/repos/"+alice.Name()+"/mill", nil, nil, http.StatusOK, &repo)
	head := strings.TrimSpace(n.Git(wt, "rev-parse", "HEAD"))
	s, stop := start()
	if run := waitRun(s, repo.ID, head); !run.Full || run.Indexed != 2 {
		t.Errorf("first start: %+v", run)
	}
	stop()

	// Down while a push changes one file: the next start reads that file only.
	head = n.Commit(wt, "Change", map[string]string{"b.go": "package b // whetstone\n"})
	n.Git(wt, "push", "-q", "origin", "main")
	s, stop = start()
	defer stop()
	if run := waitRun(s, repo.ID, head); run.Full || run.Indexed != 1 {
		t.Errorf("after a restart: %+v", run)
	}
	res, err := s.Search(context.Background(), common.Address{}, codesearch.Query{Text: "whetstone"})
	if err != nil || res.Total != 1 || res.Items[0].Path != "b.go" {
		t.Errorf("search after the restart: %+v, %v", res, err)
	}
}
