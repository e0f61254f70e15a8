// Package corpus builds the benchmarks' git repositories once into a cache
// directory and reuses them: the 200 MB repository with history (the Go
// sources) of bench-forge's clone and push figures and bench-replication's
// replication figures, and the ~1 GB one of generated blobs.
package corpus

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"go/build"
	"hash/fnv"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dforge/dforge/internal/forgenode"
)

// The two repositories are built once with `git fast-import` into the cache
// directory and reused by later runs. The content is deterministic (a fixed
// seed, fixed dates), so a rebuild on another machine with the same Go
// toolchain makes the same repository. Bump corpusVersion when the recipe
// changes: the directory names carry it.
const corpusVersion = 1

// Repo is a bare repository of the cache and what it holds.
type Repo struct {
	Path string
	Info Info
}

// Info is written next to the repository (bench-forge.json) once it is
// complete; a directory without it is an interrupted build.
type Info struct {
	Version     int       `json:"version"`
	Recipe      string    `json:"recipe"`
	PackedBytes int64     `json:"packed_bytes"`
	Objects     int64     `json:"objects"`
	Commits     int       `json:"commits"`
	Branch      string    `json:"branch"`
	Head        string    `json:"head"`
	GoVersion   string    `json:"go_version"`
	Built       time.Time `json:"built"`
	BuildTime   string    `json:"build_time"`
}

const (
	infoFile = "bench-forge.json"
	// Branch is the repositories' one branch, the one forgenode.CreateRepo
	// makes the default.
	Branch = forgenode.DefaultBranch
	// historyCommits is how many commits bring the Go sources in.
	historyCommits = 20
	fillerCommits  = 5
	bigBlob        = 1 << 20 // generated files of the large repository
	hugeBlob       = 2 << 20 // and of the ~1 GB one
	hugeCommits    = 4
)

// Big is the repository of the clone and push figures: the Go
// toolchain's sources ($GOROOT/src, misc, test, lib) brought in over 20
// commits, each also editing some of the files already there (so the
// history has deltas), then commits of generated incompressible files until
// the packed size reaches targetMB.
func Big(ctx context.Context, g *Git, cache string, targetMB int, out io.Writer) (*Repo, error) {
	name := fmt.Sprintf("big-v%d-%dmb.git", corpusVersion, targetMB)
	return cached(ctx, g, cache, name, out, func(ctx context.Context, dir string) (string, error) {
		return buildBig(ctx, g, dir, int64(targetMB)*1e6)
	})
}

// Huge is the repository of the memory figure: targetMB of
// incompressible 2 MiB blobs in 4 commits.
func Huge(ctx context.Context, g *Git, cache string, targetMB int, out io.Writer) (*Repo, error) {
	name := fmt.Sprintf("huge-v%d-%dmb.git", corpusVersion, targetMB)
	return cached(ctx, g, cache, name, out, func(ctx context.Context, dir string) (string, error) {
		total := int64(targetMB) * 1e6
		perCommit := (total + hugeCommits - 1) / hugeCommits
		err := fastImport(ctx, g, dir, func(w *importWriter) error {
			for c := range hugeCommits {
				w.commit(c, fmt.Sprintf("Generated blobs, part %d of %d", c+1, hugeCommits), false)
				if err := w.filler(ctx, fmt.Sprintf("huge/part-%d", c+1), uint64(1000+c), perCommit, hugeBlob); err != nil {
					return err
				}
			}
			return nil
		})
		return fmt.Sprintf("%d MB of generated incompressible %d MiB blobs in %d commits", targetMB, hugeBlob>>20, hugeCommits), err
	})
}

// cached returns the repository name of the cache, building it with build
// first when it is not there (in a temporary directory, renamed when done).
func cached(ctx context.Context, g *Git, cache, name string, out io.Writer, build func(context.Context, string) (string, error)) (*Repo, error) {
	final := filepath.Join(cache, name)
	if c, err := loadCorpus(final); err == nil {
		fmt.Fprintf(out, "  %s: cached, %.1f MB packed, %d objects, %d commits (built %s in %s with %s)\n",
			name, mb(c.Info.PackedBytes), c.Info.Objects, c.Info.Commits, c.Info.Built.Format(time.DateOnly), c.Info.BuildTime, c.Info.GoVersion)
		return c, nil
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return nil, err
	}
	if err := os.RemoveAll(final); err != nil { // an interrupted build
		return nil, err
	}
	// Builds killed outright (SIGKILL) leave their temporary directory.
	stale, _ := filepath.Glob(filepath.Join(cache, ".tmp-"+name+"-*"))
	for _, d := range stale {
		if st, err := os.Stat(d); err == nil && time.Since(st.ModTime()) > time.Hour {
			os.RemoveAll(d)
		}
	}
	fmt.Fprintf(out, "  %s: building it once into %s ...\n", name, cache)
	tmp, err := os.MkdirTemp(cache, ".tmp-"+name+"-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp) // gone after the rename; a leftover after a failure
	t0 := time.Now()
	if _, err := g.Output(ctx, "", "init", "--bare", "--quiet", "--initial-branch="+Branch, tmp); err != nil {
		return nil, err
	}
	// Generated blobs are never worth a delta search (not in the cache's
	// repacks; clones and pushes do their own).
	if err := os.WriteFile(filepath.Join(tmp, "info", "attributes"), []byte("*.bin -delta\n"), 0o644); err != nil {
		return nil, err
	}
	recipe, err := build(ctx, tmp)
	if err != nil {
		return nil, err
	}
	info := Info{Version: corpusVersion, Recipe: recipe, Branch: Branch, GoVersion: runtime.Version(), Built: time.Now().UTC()}
	if err := describe(ctx, g, tmp, &info); err != nil {
		return nil, err
	}
	info.BuildTime = time.Since(t0).Round(time.Second).String()
	b, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(tmp, infoFile), b, 0o644); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, final); err != nil {
		return nil, err
	}
	fmt.Fprintf(out, "  %s: built in %s: %s; %.1f MB packed, %d objects, %d commits\n",
		name, info.BuildTime, recipe, mb(info.PackedBytes), info.Objects, info.Commits)
	return &Repo{Path: final, Info: info}, nil
}

func loadCorpus(dir string) (*Repo, error) {
	b, err := os.ReadFile(filepath.Join(dir, infoFile))
	if err != nil {
		return nil, err
	}
	c := &Repo{Path: dir}
	if err := json.Unmarshal(b, &c.Info); err != nil {
		return nil, err
	}
	if c.Info.Version != corpusVersion || c.Info.Head == "" {
		return nil, errors.New("built by another version of the benchmark")
	}
	return c, nil
}

// describe fills in the packed size, object and commit counts and head.
func describe(ctx context.Context, g *Git, dir string, info *Info) error {
	var err error
	if info.PackedBytes, err = PackBytes(dir); err != nil {
		return err
	}
	if info.Head, err = g.Head(ctx, dir, Branch); err != nil {
		return err
	}
	s, err := g.Output(ctx, dir, "rev-list", "--count", info.Head)
	if err != nil {
		return err
	}
	if info.Commits, err = strconv.Atoi(strings.TrimSpace(s)); err != nil {
		return err
	}
	s, err = g.Output(ctx, dir, "count-objects", "-v")
	if err != nil {
		return err
	}
	for _, line := range strings.Split(s, "\n") {
		if v, ok := strings.CutPrefix(line, "in-pack: "); ok {
			info.Objects, _ = strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		}
	}
	return nil
}

// buildBig writes the Go sources' history, then tops the repository up with
// generated files until its packed size reaches target.
func buildBig(ctx context.Context, g *Git, dir string, target int64) (string, error) {
	files, err := gorootFiles(target * 2)
	if err != nil {
		return "", err
	}
	err = fastImport(ctx, g, dir, func(w *importWriter) error { return goHistory(w, files) })
	if err != nil {
		return "", err
	}
	// Filler commits until the repacked size passes the target (the
	// packed size of generated data is its raw size, plus a little).
	fill := 0
	for attempt := 0; ; attempt++ {
		if _, err := g.Output(ctx, dir, "repack", "-a", "-d", "-q"); err != nil {
			return "", err
		}
		have, err := PackBytes(dir)
		if err != nil {
			return "", err
		}
		if have >= target || attempt == 3 {
			break
		}
		need := target - have + target/100
		err = fastImport(ctx, g, dir, func(w *importWriter) error {
			per := (need + fillerCommits - 1) / fillerCommits
			for c := range fillerCommits {
				w.commit(historyCommits+fill, fmt.Sprintf("Generated assets, batch %d", fill+1), c == 0)
				if err := w.filler(ctx, fmt.Sprintf("assets/batch-%02d", fill+1), uint64(100+fill), per, bigBlob); err != nil {
					return err
				}
				fill++
			}
			return nil
		})
		if err != nil {
			return "", err
		}
	}
	var raw int64
	for _, f := range files {
		raw += f.size
	}
	return fmt.Sprintf("%d files (%.0f MB) of %s in %d commits, then %d commits of generated incompressible %d MiB files",
		len(files), mb(raw), runtime.Version(), historyCommits, fill, bigBlob>>20), nil
}

type sourceFile struct {
	abs, path string // on disk; in the repository
	exec      bool
	size      int64
}

// gorootFiles lists $GOROOT/{src,misc,test,lib} in path order, as much of
// it as fits in limit raw bytes (all of it for the full-size repository).
func gorootFiles(limit int64) ([]sourceFile, error) {
	root := build.Default.GOROOT
	if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil && strings.TrimSpace(string(out)) != "" {
		root = strings.TrimSpace(string(out))
	}
	var files []sourceFile
	var total int64
	for _, top := range []string{"src", "misc", "test", "lib"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.Type().IsRegular() {
				return nil // directories, symlinks
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			files = append(files, sourceFile{abs: p, path: "go/" + filepath.ToSlash(rel), exec: info.Mode()&0o111 != 0, size: info.Size()})
			return nil
		})
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("list GOROOT: %w", err)
		}
	}
	slices.SortFunc(files, func(a, b sourceFile) int { return strings.Compare(a.path, b.path) })
	for i, f := range files {
		if total += f.size; total > limit {
			return files[:i], nil
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no files under %s", root)
	}
	return files, nil
}

// goHistory brings files in over historyCommits commits, a slice each.
// Every commit also appends a line to about 1 in 40 of the files already
// there, so files have several versions, as in a real history.
func goHistory(w *importWriter, files []sourceFile) error {
	edited := func(f sourceFile, rev int) bool {
		h := fnv.New32a()
		h.Write([]byte(f.path))
		return (h.Sum32()+uint32(rev)*7919)%40 == 0
	}
	for c := range historyCommits {
		lo, hi := c*len(files)/historyCommits, (c+1)*len(files)/historyCommits
		w.commit(c, fmt.Sprintf("Import the Go sources, part %d of %d", c+1, historyCommits), false)
		for i, f := range files[:hi] {
			if i < lo && !edited(f, c) {
				continue
			}
			b, err := os.ReadFile(f.abs)
			if err != nil {
				return err
			}
			for rev := 1; rev <= c; rev++ {
				if i < rev*len(files)/historyCommits && edited(f, rev) { // edited once it was there
					b = fmt.Appendf(b, "\n// bench-forge: revision %d\n", rev)
				}
			}
			w.file(f.path, f.exec, b)
		}
		if w.err != nil {
			return w.err
		}
	}
	return nil
}

// fastImport runs `git fast-import` in the bare repository dir and lets
// write feed it.
func fastImport(ctx context.Context, g *Git, dir string, write func(*importWriter) error) error {
	// unpackLimit 0: a small import is a pack too, not loose objects.
	cmd := g.Command(ctx, dir, "-c", "fastimport.unpackLimit=0", "fast-import", "--quiet")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	w := &importWriter{w: bufio.NewWriterSize(stdin, 1<<20)}
	werr := write(w)
	if werr == nil {
		werr = w.err
	}
	if werr == nil {
		werr = w.w.Flush()
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		return Error([]string{"fast-import"}, err, stderr.String())
	}
	return werr
}

// importWriter writes a fast-import stream; the first error sticks.
type importWriter struct {
	w   *bufio.Writer
	err error
}

func (w *importWriter) printf(format string, args ...any) {
	if w.err == nil {
		_, w.err = fmt.Fprintf(w.w, format, args...)
	}
}

func (w *importWriter) data(b []byte) {
	w.printf("data %d\n", len(b))
	if w.err == nil {
		_, w.err = w.w.Write(b)
	}
	w.printf("\n")
}

// commit starts commit number n on the branch. Within one run fast-import
// continues the branch by itself; resume is set on the first commit of a
// later run, to continue from the branch as the repository has it.
func (w *importWriter) commit(n int, msg string, resume bool) {
	when := 1_700_000_000 + int64(n)*86_400
	w.printf("commit refs/heads/%s\n", Branch)
	w.printf("author bench-forge <bench@dforge.invalid> %d +0000\n", when)
	w.printf("committer bench-forge <bench@dforge.invalid> %d +0000\n", when)
	w.data([]byte(msg + "\n"))
	if resume {
		w.printf("from refs/heads/%s^0\n", Branch)
	}
}

func (w *importWriter) file(path string, exec bool, b []byte) {
	mode := "100644"
	if exec {
		mode = "100755"
	}
	w.printf("M %s inline %s\n", mode, quotePath(path))
	w.data(b)
}

// filler adds total bytes of pseudo-random (incompressible) files of size
// each under dir, from a fixed seed.
func (w *importWriter) filler(ctx context.Context, dir string, seed uint64, total int64, size int) error {
	var key [32]byte
	binary.LittleEndian.PutUint64(key[:], seed)
	rng := rand.NewChaCha8(key)
	buf := make([]byte, size)
	for i := 0; int64(i)*int64(size) < total; i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := min(int64(size), total-int64(i)*int64(size))
		rng.Read(buf[:n])
		w.file(fmt.Sprintf("%s/blob-%04d.bin", dir, i), false, buf[:n])
	}
	return w.err
}

// quotePath is a path as fast-import reads it: C-style quoted when it
// holds a quote, a backslash or a control character.
func quotePath(p string) string {
	if !strings.ContainsFunc(p, func(r rune) bool { return r == '"' || r == '\\' || r < 0x20 || r == 0x7f }) {
		return p
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, "\\%03o", c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// DefaultCache is $XDG_CACHE_HOME/dforge-bench-forge, else
// ./.cache/bench-forge (git-ignored) so the space it takes is in plain
// sight. The benchmarks share it: each repository is built once.
func DefaultCache() string {
	if x := os.Getenv("XDG_CACHE_HOME"); x != "" {
		return filepath.Join(x, "dforge-bench-forge")
	}
	return filepath.Join(".cache", "bench-forge")
}

func mb(n int64) float64 { return float64(n) / 1e6 }
