package codesearch

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// MaxFileSize is the largest file indexed; bigger ones are data, not code.
const MaxFileSize = 1 << 20

// batchSize is how many files go into one write of the index.
const batchSize = 256

// doc is a file as the index holds it.
type doc struct {
	RepoID   string `json:"repo_id"`
	Repo     string `json:"repo"` // owner/name
	Path     string `json:"path"`
	Language string `json:"language"`
	Private  bool   `json:"private"`
	// Blob is the file's object id: a result's lines are read by it.
	Blob    string `json:"blob"`
	Content string `json:"content"`
}

func docID(repo uint64, p string) string { return strconv.FormatUint(repo, 10) + ":" + p }

// sync brings repository id's documents to the head of its default
// branch: the files a push changed when the index holds the commit before
// it, every file otherwise. The commit indexed is written with the last
// batch, so a crash leaves the previous one named and the next start does
// the work again.
func (s *Service) sync(ctx context.Context, id uint64) error {
	rec, err := s.ix.RepoByID(ctx, id)
	if ue, ok := usererr.As(err); ok && ue.Kind == usererr.NotFound {
		return s.drop(id)
	}
	if err != nil {
		return err
	}
	old, err := s.meta(id)
	if err != nil {
		return err
	}
	want := repoMeta{Name: rec.Owner.Username + "/" + rec.Name, Private: rec.Private, Branch: rec.DefaultBranch}
	dir, err := s.dir(rec)
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(dir, "HEAD")); err != nil {
		s.wait(id) // no git data here (yet)
		return nil
	}
	if want.Commit, err = s.head(ctx, rec, dir); err != nil {
		return err
	}
	if want.Commit != "" && !hasCommit(ctx, dir, want.Commit) {
		s.wait(id) // the chain is ahead of this node's copy
		return nil
	}
	if old == want {
		return nil
	}
	run := Run{Commit: want.Commit}
	sameRepo := old.Name == want.Name && old.Private == want.Private
	switch {
	case want.Commit == "":
		run.Deleted, err = s.deleteRepoDocs(id)
		if err == nil {
			err = s.writeMeta(id, want)
		}
	case sameRepo && old.Commit != "":
		run, err = s.update(ctx, id, dir, old.Commit, want)
		if err != nil { // the old commit gone (a forced push and a gc): read all
			s.log.Warn("code search: incremental update failed; indexing in full", "repo", id, "err", err)
			run, err = s.full(ctx, id, dir, want)
		}
	default:
		run, err = s.full(ctx, id, dir, want)
	}
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.runs[id] = run
	s.mu.Unlock()
	s.log.Debug("code search: indexed", "repo", id, "commit", run.Commit, "full", run.Full, "indexed", run.Indexed, "deleted", run.Deleted)
	return nil
}

func (s *Service) wait(id uint64) {
	s.mu.Lock()
	s.waiting[id] = true
	s.mu.Unlock()
}

// head is the commit of rec's default branch as the chain has it (on the
// node that took a push, the projection names it before git moves the
// ref), or as git has it when the chain names none; "" when the branch
// does not exist.
func (s *Service) head(ctx context.Context, rec index.Repo, dir string) (string, error) {
	ref := "refs/heads/" + rec.DefaultBranch
	refs, err := s.ix.ChainRefs(ctx, rec.ID)
	if err != nil {
		return "", err
	}
	for _, r := range refs {
		if r.Ref == ref {
			if r.SHA == forge.ZeroSHA {
				return "", nil
			}
			return r.SHA, nil
		}
	}
	sha, found, err := gitstore.RefValue(ctx, dir, ref)
	if err != nil || !found {
		return "", err
	}
	return sha, nil
}

func hasCommit(ctx context.Context, dir, sha string) bool {
	return gitstore.Command(ctx, dir, "cat-file", "-e", sha+"^{commit}").Run() == nil
}

// drop removes a deleted repository's documents and what it was indexed at.
func (s *Service) drop(id uint64) error {
	n, err := s.deleteRepoDocs(id)
	if err != nil {
		return err
	}
	b := s.idx.NewBatch()
	b.DeleteInternal(metaKey(id))
	if err := s.batch(b); err != nil {
		return fmt.Errorf("forget repository %d: %w", id, err)
	}
	s.mu.Lock()
	s.runs[id] = Run{Deleted: n}
	s.mu.Unlock()
	return nil
}

// deleteRepoDocs removes every document of repository id.
func (s *Service) deleteRepoDocs(id uint64) (int, error) {
	q := bleve.NewTermQuery(strconv.FormatUint(id, 10))
	q.SetField("repo_id")
	n := 0
	for {
		res, err := s.idx.Search(bleve.NewSearchRequestOptions(q, 1000, 0, false))
		if err != nil {
			return n, fmt.Errorf("list the documents of repository %d: %w", id, err)
		}
		if len(res.Hits) == 0 {
			return n, nil
		}
		b := s.idx.NewBatch()
		for _, h := range res.Hits {
			b.Delete(h.ID)
		}
		if err := s.batch(b); err != nil {
			return n, fmt.Errorf("delete the documents of repository %d: %w", id, err)
		}
		n += len(res.Hits)
	}
}

// batch writes b to the index; results kept from before are old then.
func (s *Service) batch(b *bleve.Batch) error {
	defer s.cache.changed()
	s.sinceMerge.Add(int64(b.Size()))
	return s.idx.Batch(b)
}

func (s *Service) writeMeta(id uint64, m repoMeta) error {
	b := s.idx.NewBatch()
	raw, _ := json.Marshal(m)
	b.SetInternal(metaKey(id), raw)
	if err := s.batch(b); err != nil {
		return fmt.Errorf("record what repository %d is indexed at: %w", id, err)
	}
	return nil
}

// full indexes every file of want.Commit anew.
func (s *Service) full(ctx context.Context, id uint64, dir string, want repoMeta) (Run, error) {
	run := Run{Commit: want.Commit, Full: true}
	var err error
	if run.Deleted, err = s.deleteRepoDocs(id); err != nil {
		return run, err
	}
	out, err := gitOutput(ctx, dir, "ls-tree", "-r", "-z", "--full-tree", want.Commit)
	if err != nil {
		return run, err
	}
	var blobs []blobRef
	for _, rec := range strings.Split(string(out), "\x00") {
		// <mode> SP <type> SP <object> TAB <path>
		meta, p, ok := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 || f[1] != "blob" || !indexable(f[0], p) {
			continue
		}
		blobs = append(blobs, blobRef{sha: f[2], path: p})
	}
	w := s.newWriter(id, want)
	if err := readBlobs(ctx, dir, blobs, false, func(i int, content []byte) { w.add(blobs[i], content) }); err != nil {
		return run, err
	}
	run.Indexed = w.added
	return run, w.finish()
}

// update applies the files changed from old to want.Commit.
func (s *Service) update(ctx context.Context, id uint64, dir, old string, want repoMeta) (Run, error) {
	run := Run{Commit: want.Commit}
	out, err := gitOutput(ctx, dir, "diff-tree", "-r", "-z", "--no-renames", "--no-commit-id", old, want.Commit)
	if err != nil {
		return run, err
	}
	w := s.newWriter(id, want)
	var blobs []blobRef
	parts := strings.Split(string(out), "\x00")
	for i := 0; i+1 < len(parts); i += 2 {
		// :<old mode> <new mode> <old sha> <new sha> <status> NUL <path>
		f := strings.Fields(strings.TrimPrefix(parts[i], ":"))
		p := parts[i+1]
		if len(f) != 5 {
			return run, fmt.Errorf("read the changes of repository %d: unexpected %q", id, parts[i])
		}
		if f[4] == "D" || !indexable(f[1], p) {
			w.delete(p)
			continue
		}
		blobs = append(blobs, blobRef{sha: f[3], path: p})
	}
	if err := readBlobs(ctx, dir, blobs, false, func(i int, content []byte) { w.add(blobs[i], content) }); err != nil {
		return run, err
	}
	run.Indexed, run.Deleted = w.added, w.deleted
	return run, w.finish()
}

// indexable: a regular file (no link, no submodule), not other people's
// code nor a minified bundle.
func indexable(mode, p string) bool {
	if mode != "100644" && mode != "100755" {
		return false
	}
	base := path.Base(p)
	return !gitstore.Vendored(p) && !strings.Contains(base, ".min.")
}

// Language is a file's language as the index and its filter name it.
func Language(p string) string {
	if l := gitstore.LanguageOf(p); l != "" {
		return l
	}
	return proseByExt[strings.ToLower(path.Ext(p))]
}

// proseByExt are the kinds of text Gitea's language count leaves out that
// one still searches by.
var proseByExt = map[string]string{".md": "Markdown", ".markdown": "Markdown", ".json": "JSON", ".yaml": "YAML",
	".yml": "YAML", ".toml": "TOML", ".xml": "XML", ".txt": "Text", ".rst": "reStructuredText", ".ini": "INI"}

// writer gathers a repository's changes into batches.
type writer struct {
	s              *Service
	id             uint64
	meta           repoMeta
	b              *bleve.Batch
	err            error
	added, deleted int
}

func (s *Service) newWriter(id uint64, m repoMeta) *writer {
	return &writer{s: s, id: id, meta: m, b: s.idx.NewBatch()}
}

func (w *writer) add(b blobRef, content []byte) {
	p := b.path
	if gitstore.IsBinary(content) || !utf8.Valid(content) {
		w.delete(p) // a text file that became binary
		return
	}
	if w.meta.Private {
		w.s.holdingPrivate() // before the file can be found
	}
	d := doc{RepoID: strconv.FormatUint(w.id, 10), Repo: w.meta.Name, Path: p, Language: Language(p), Private: w.meta.Private,
		Blob: b.sha, Content: p + "\n" + string(content)}
	if err := w.b.Index(docID(w.id, p), d); err != nil && w.err == nil {
		w.err = err
	}
	w.added++
	w.flush(false)
}

func (w *writer) delete(p string) {
	w.b.Delete(docID(w.id, p))
	w.deleted++
	w.flush(false)
}

func (w *writer) flush(last bool) {
	if w.err != nil || (!last && w.b.Size() < batchSize) {
		return
	}
	if last {
		raw, _ := json.Marshal(w.meta)
		w.b.SetInternal(metaKey(w.id), raw)
	}
	if err := w.s.batch(w.b); err != nil {
		w.err = fmt.Errorf("write the index of repository %d: %w", w.id, err)
	}
	// A new batch, not Reset: scorch's Batch may return while a goroutine
	// of its own still ranges over the old batch's map.
	w.b = w.s.idx.NewBatch()
}

func (w *writer) finish() error {
	w.flush(true)
	return w.err
}

type blobRef struct{ sha, path string }

// readBlobs streams the blobs through one `git cat-file --batch`, handing
// each one no bigger than MaxFileSize to fn with its index in blobs. A
// blob's name is its object id; with missingOK, a missing one is passed
// over.
func readBlobs(ctx context.Context, dir string, blobs []blobRef, missingOK bool, fn func(i int, content []byte)) error {
	if len(blobs) == 0 {
		return nil
	}
	cmd := gitstore.Command(ctx, dir, "cat-file", "--batch")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("git cat-file: %w", err)
	}
	go func() {
		bw := bufio.NewWriter(stdin)
		for _, b := range blobs {
			bw.WriteString(b.sha + "\n")
		}
		bw.Flush()
		stdin.Close()
	}()
	r := bufio.NewReaderSize(stdout, 64<<10)
	readErr := func() error {
		for i, b := range blobs {
			header, err := r.ReadString('\n')
			if err != nil {
				return fmt.Errorf("git cat-file: %w", err)
			}
			f := strings.Fields(header) // <sha> <type> <size>, or <name> missing
			if missingOK && strings.HasSuffix(header, " missing\n") {
				continue
			}
			if len(f) != 3 {
				return fmt.Errorf("git cat-file: object %s: %s", b.sha, strings.TrimSpace(header))
			}
			size, err := strconv.ParseInt(f[2], 10, 64)
			if err != nil {
				return fmt.Errorf("git cat-file: %q", header)
			}
			if size > MaxFileSize {
				if _, err := io.CopyN(io.Discard, r, size+1); err != nil {
					return fmt.Errorf("git cat-file: %w", err)
				}
				continue
			}
			buf := make([]byte, size+1)
			if _, err := io.ReadFull(r, buf); err != nil {
				return fmt.Errorf("git cat-file: %w", err)
			}
			fn(i, buf[:size])
		}
		return nil
	}()
	if readErr != nil {
		_ = cmd.Process.Kill()
	}
	waitErr := cmd.Wait()
	if readErr != nil {
		return readErr
	}
	if waitErr != nil {
		return fmt.Errorf("git cat-file: %w: %s", waitErr, strings.TrimSpace(stderr.String()))
	}
	return nil
}

func gitOutput(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := gitstore.Command(ctx, dir, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// --- the projection's side (index.ForgeObserver) ---

// Observe notes the repositories a projected action pushed to or changed
// (renamed, transferred, made private or public, deleted); they are
// queued once the transaction commits.
func (s *Service) Observe(_ context.Context, _ *index.WriteTx, changes []index.ForgeChange) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range changes {
		for _, r := range c.Change.Refs {
			s.observed = append(s.observed, r.Repo)
		}
		if c.Change.Ref != nil {
			s.observed = append(s.observed, c.Change.Ref.Repo)
		}
		for _, r := range c.Change.Repos {
			s.observed = append(s.observed, r.ID)
		}
	}
	return nil
}

// Projected queues what Observe noted.
func (s *Service) Projected() {
	s.mu.Lock()
	ids := s.observed
	s.observed = nil
	s.mu.Unlock()
	if len(ids) > 0 {
		s.Notify(ids...)
	}
}
