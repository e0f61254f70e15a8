// Package codesearch is code search over repositories' default branches: a
// bleve index in the node's data directory, one document per file, kept at
// each default branch's head as pushes arrive (public repositories on
// every node that holds their git data, private ones on their node). A
// search finds files in the index and reads their lines from git.
package codesearch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/regexp"
	"github.com/blevesearch/bleve/v2/mapping"
	"golang.org/x/sync/singleflight"

	"github.com/dforge/dforge/internal/index"
)

// Config is what a Service is opened with.
type Config struct {
	// Dir is the index's directory (<data>/codesearch).
	Dir string
	// Index is the chain's projection: repositories, their default
	// branches and the refs the chain gives them, and who reads which.
	Index *index.Index
	// RepoDir is where a repository's bare git directory is on this node.
	RepoDir func(index.Repo) (string, error)
	// Retry is how often repositories whose commit is not here yet (a
	// replica still on its way) are looked at again; 0 means 10 seconds.
	Retry time.Duration
	Log   *slog.Logger
}

// Service owns the index and the worker that keeps it at the heads.
type Service struct {
	idx   bleve.Index
	ix    *index.Index
	dir   func(index.Repo) (string, error)
	retry time.Duration
	log   *slog.Logger
	cache resultCache
	// mayHidePrivate is set once the index may hold a private file, before
	// the first one is written: until then no search needs to filter. A
	// search holds privacy (read) while it runs, so the writer of the first
	// private file waits for the searches that read it unset.
	mayHidePrivate atomic.Bool
	privacy        sync.RWMutex
	inFlight       singleflight.Group // searches running, by cache key
	// sinceMerge counts the documents written since the index was last
	// merged into one segment; merging is set while a merge runs
	// (compact.go).
	sinceMerge atomic.Int64
	merging    atomic.Bool

	mu       sync.Mutex
	queue    map[uint64]bool // repositories to look at
	observed []uint64        // seen in a projecting transaction, queued once it commits
	waiting  map[uint64]bool // their commit is not on this node yet
	runs     map[uint64]Run  // the last run per repository
	wake     chan struct{}
}

// Run is what one indexing of a repository did.
type Run struct {
	Commit  string
	Full    bool // every file was read again
	Indexed int  // files (re)indexed
	Deleted int  // documents removed
}

// repoMeta is what the index holds of a repository besides its files,
// under its internal key: what it was indexed at.
type repoMeta struct {
	Commit  string `json:"commit"`
	Name    string `json:"name"`
	Private bool   `json:"private"`
	Branch  string `json:"branch"`
}

// Open opens the index in cfg.Dir, creating it on first use. An index
// that does not open (a crash mid-write left it unreadable) is made anew:
// the worker indexes every repository again.
func Open(cfg Config) (*Service, error) {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.Retry == 0 {
		cfg.Retry = 10 * time.Second
	}
	idx, err := openIndex(cfg.Dir, cfg.Log)
	if err != nil {
		return nil, err
	}
	s := &Service{idx: idx, ix: cfg.Index, dir: cfg.RepoDir, retry: cfg.Retry, log: cfg.Log,
		queue: map[uint64]bool{}, waiting: map[uint64]bool{}, runs: map[uint64]Run{}, wake: make(chan struct{}, 1)}
	private, err := s.count(context.Background(), boolQuery("private", true))
	if err != nil {
		idx.Close()
		return nil, err
	}
	s.mayHidePrivate.Store(private > 0)
	return s, nil
}

// holdingPrivate is called before a private file is written to the index.
func (s *Service) holdingPrivate() {
	if s.mayHidePrivate.Load() {
		return
	}
	s.privacy.Lock()
	s.mayHidePrivate.Store(true)
	s.privacy.Unlock()
}

func openIndex(dir string, log *slog.Logger) (bleve.Index, error) {
	idx, err := bleve.Open(dir)
	if err == nil {
		if current(idx) {
			return idx, nil
		}
		// Made by an older binary with another layout: the worker
		// indexes every repository again into the new one.
		log.Info("the code search index has an older layout; it is built again", "dir", dir)
		if err := idx.Close(); err != nil {
			return nil, fmt.Errorf("close the old code search index: %w", err)
		}
		err = errors.New("older layout")
	}
	if !errors.Is(err, bleve.ErrorIndexPathDoesNotExist) {
		log.Warn("the code search index does not open; it is built again", "dir", dir, "err", err)
		if err := os.RemoveAll(dir); err != nil {
			return nil, fmt.Errorf("remove the broken code search index: %w", err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, fmt.Errorf("create the code search index: %w", err)
	}
	m, err := newMapping()
	if err != nil {
		return nil, err
	}
	idx, err = bleve.New(dir, m)
	if err != nil {
		return nil, fmt.Errorf("create the code search index: %w", err)
	}
	if err := idx.SetInternal(layoutKey, []byte(layout)); err != nil {
		idx.Close()
		return nil, fmt.Errorf("create the code search index: %w", err)
	}
	return idx, nil
}

// layout names the index's mapping. An index whose layout differs (or
// has none: the first one stored every file's content) is built again, as
// a mapping cannot change under existing documents. Layout 3 indexes a
// path's words with the content rather than in a field of their own;
// layout 4 stores each file's object id.
const layout = "4"

var layoutKey = []byte("layout")

func current(idx bleve.Index) bool {
	v, err := idx.GetInternal(layoutKey)
	return err == nil && string(v) == layout
}

// codeAnalyzer splits text into words of letters, digits and underscores,
// lower-cased: `fmt.Println(x)` is fmt, println and x. No stemming and no
// stop words: in code, `if` and `for` are words one looks for.
const codeAnalyzer = "code"

func newMapping() (*mapping.IndexMappingImpl, error) {
	m := bleve.NewIndexMapping()
	if err := m.AddCustomTokenizer("codewords", map[string]any{"type": regexp.Name, "regexp": `[\p{L}\p{N}_]+`}); err != nil {
		return nil, fmt.Errorf("code search mapping: %w", err)
	}
	if err := m.AddCustomAnalyzer(codeAnalyzer, map[string]any{"type": custom.Name, "tokenizer": "codewords",
		"token_filters": []string{lowercase.Name}}); err != nil {
		return nil, fmt.Errorf("code search mapping: %w", err)
	}
	// Only what a result shows is stored, and only the faceted fields
	// (language, repo_id) keep doc values; no field goes into _all, which
	// no query reads.
	// The content is neither stored nor kept as doc values: a result's
	// lines are read from git (lines.go), which keeps the index at a
	// fraction of the source's size.
	kw := func(store, docValues bool) *mapping.FieldMapping {
		f := bleve.NewKeywordFieldMapping()
		f.Analyzer = keyword.Name
		f.IncludeTermVectors = false
		f.IncludeInAll = false
		f.Store, f.DocValues = store, docValues
		return f
	}
	text := func(store bool) *mapping.FieldMapping {
		f := bleve.NewTextFieldMapping()
		f.Analyzer = codeAnalyzer
		f.IncludeTermVectors = false
		f.IncludeInAll = false
		f.Store, f.DocValues = store, false
		return f
	}
	d := bleve.NewDocumentStaticMapping()
	d.AddFieldMappingsAt("repo_id", kw(true, true)) // the repos facet (catch-up)
	d.AddFieldMappingsAt("repo", kw(true, false))
	d.AddFieldMappingsAt("language", kw(true, true))
	// A path's words are indexed with the content (sync.go), so one
	// field answers a search; the path itself is only stored, to show.
	path := text(true)
	path.Index = false
	d.AddFieldMappingsAt("path", path)
	blob := kw(true, false)
	blob.Index = false
	d.AddFieldMappingsAt("blob", blob)
	d.AddFieldMappingsAt("content", text(false))
	priv := bleve.NewBooleanFieldMapping()
	priv.Store, priv.DocValues, priv.IncludeInAll = false, false, false
	d.AddFieldMappingsAt("private", priv)
	m.DefaultMapping = d
	m.DefaultAnalyzer = codeAnalyzer
	return m, nil
}

// Close closes the index; stop Run first.
func (s *Service) Close() error { return s.idx.Close() }

// Notify queues repositories to be brought to their heads.
func (s *Service) Notify(ids ...uint64) {
	s.mu.Lock()
	for _, id := range ids {
		s.queue[id] = true
	}
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// LastRun is what the last indexing of repository id did.
func (s *Service) LastRun(id uint64) (Run, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.runs[id]
	return r, ok
}

// Run keeps the index at the repositories' heads until ctx ends: first
// every repository (what changed while the node was down), then each one
// Notify or the projection names, and those whose commit was not here yet
// every Retry.
func (s *Service) Run(ctx context.Context) {
	if err := s.catchUp(ctx); err != nil && ctx.Err() == nil {
		s.log.Error("code search: list the repositories", "err", err)
	}
	tick := time.NewTicker(s.retry)
	defer tick.Stop()
	for {
		for id, ok := s.next(); ok; id, ok = s.next() {
			if ctx.Err() != nil {
				return
			}
			if err := s.sync(ctx, id); err != nil && ctx.Err() == nil {
				s.log.Error("code search: index a repository", "repo", id, "err", err)
				s.mu.Lock()
				s.waiting[id] = true // tried again later
				s.mu.Unlock()
			}
		}
		s.compact(ctx)
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		case <-tick.C:
			s.mu.Lock()
			for id := range s.waiting {
				s.queue[id] = true
			}
			clear(s.waiting)
			s.mu.Unlock()
		}
	}
}

func (s *Service) next() (uint64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id := range s.queue {
		delete(s.queue, id)
		return id, true
	}
	return 0, false
}

// catchUp queues every repository, and drops the documents of those gone
// while the node was down.
func (s *Service) catchUp(ctx context.Context) error {
	ids, err := s.ix.RepoIDs(ctx)
	if err != nil {
		return err
	}
	known := make(map[uint64]bool, len(ids))
	for _, id := range ids {
		known[id] = true
	}
	indexed, err := s.indexedRepos()
	if err != nil {
		return err
	}
	for _, id := range indexed {
		if !known[id] {
			ids = append(ids, id) // sync finds it gone
		}
	}
	s.Notify(ids...)
	return nil
}

// indexedRepos lists the repositories with documents in the index.
func (s *Service) indexedRepos() ([]uint64, error) {
	req := bleve.NewSearchRequestOptions(bleve.NewMatchAllQuery(), 0, 0, false)
	req.AddFacet("repos", bleve.NewFacetRequest("repo_id", 1<<20))
	res, err := s.idx.Search(req)
	if err != nil {
		return nil, fmt.Errorf("list indexed repositories: %w", err)
	}
	var out []uint64
	if f := res.Facets["repos"]; f != nil && f.Terms != nil {
		for _, t := range f.Terms.Terms() {
			if id, err := strconv.ParseUint(t.Term, 10, 64); err == nil {
				out = append(out, id)
			}
		}
	}
	return out, nil
}

func metaKey(id uint64) []byte { return []byte("repo/" + strconv.FormatUint(id, 10)) }

func (s *Service) meta(id uint64) (repoMeta, error) {
	var m repoMeta
	raw, err := s.idx.GetInternal(metaKey(id))
	if err != nil {
		return m, fmt.Errorf("read what repository %d was indexed at: %w", id, err)
	}
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &m) // unreadable: indexed again in full
	}
	return m, nil
}
