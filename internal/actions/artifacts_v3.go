package actions

import (
	"archive/zip"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dforge/dforge/internal/usererr"
)

// Artifacts v3: the older protocol of upload-artifact@v3 and
// download-artifact@v3 (the npm @actions/artifact v1 inside them), as
// Gitea serves it at ACTIONS_RUNTIME_URL. Unlike v4's client, v1's runs
// against any server, so these are the artifact actions that work on a
// forge that is not github.com. An artifact is a container of files: each
// file is PUT in chunks (Content-Range, gzip or not), and the finalizing
// PATCH zips them into the same file a v4 upload leaves, which then goes
// on as v4's does (hash, blockstore, ready). Either version's client, and
// the REST API, reads an artifact of either.

// PipelinePrefix is where the v3 artifact service is served: the runner
// gives the steps it as ACTIONS_RUNTIME_URL.
const PipelinePrefix = "/api/actions_pipeline/"

// maxV3Items bounds the files of one v3 artifact.
const maxV3Items = 10_000

// PipelineHandler serves the v3 artifact service.
func (s *Service) PipelineHandler() http.Handler {
	mux := http.NewServeMux()
	base := PipelinePrefix + "_apis/pipelines/workflows/{run}/artifacts"
	mux.HandleFunc("POST "+base, s.v3(s.v3Create))
	mux.HandleFunc("GET "+base, s.v3(s.v3List))
	mux.HandleFunc("PATCH "+base, s.v3(s.v3Finalize))
	mux.HandleFunc("PUT "+base+"/{id}/upload", s.v3(s.v3Upload))
	mux.HandleFunc("GET "+base+"/{id}/path", s.v3(s.v3Items))
	mux.HandleFunc("GET "+base+"/{id}/download", s.v3(s.v3Download))
	return mux
}

type v3Call func(w http.ResponseWriter, r *http.Request, c runtimeClaims) (any, error)

// v3 checks the runtime token against the run in the path, runs call and
// writes its answer as JSON (nil: call wrote it), or its error.
func (s *Service) v3(call v3Call) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		out, err := s.v3Authorized(w, r, call)
		if err != nil {
			s.v3Fail(w, err)
			return
		}
		if out != nil {
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(out)
		}
	}
}

func (s *Service) v3Authorized(w http.ResponseWriter, r *http.Request, call v3Call) (any, error) {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return nil, usererr.New(usererr.Unauthenticated, "bad_token", "a runtime token is required")
	}
	c, err := s.checkRuntimeToken(r.Context(), strings.TrimSpace(tok))
	if err != nil {
		return nil, err
	}
	if r.PathValue("run") != strconv.FormatInt(c.Run, 10) {
		return nil, usererr.Deniedf("the runtime token is not for run %q", r.PathValue("run"))
	}
	return call(w, r, c)
}

func (s *Service) v3Fail(w http.ResponseWriter, err error) {
	status, _, msg := s.reply(err, "v3 artifact request")
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"message": msg})
}

// v3Container is a container as the v1 client reads it.
func (s *Service) v3Container(r *http.Request, a Artifact) map[string]any {
	u := fmt.Sprintf("%s%s_apis/pipelines/workflows/%d/artifacts/%d", s.baseURL(r), PipelinePrefix, a.RunID, a.ID)
	return map[string]any{"containerId": a.ID, "size": a.Size, "signedContent": "", "type": "actions_storage", "name": a.Name,
		"fileContainerResourceUrl": u + "/upload", "url": u}
}

// v3Create starts an artifact ({Type, Name, RetentionDays}), or answers
// the run's artifact of that name to add files to: a client retries, and
// with v3 the jobs of a matrix upload into one artifact.
func (s *Service) v3Create(_ http.ResponseWriter, r *http.Request, c runtimeClaims) (any, error) {
	var q struct {
		Name          string
		RetentionDays int
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&q); err != nil {
		return nil, usererr.BadFieldf("body", "the request is not JSON: %v", err)
	}
	if old, err := s.artifactNamed(r.Context(), c.Run, q.Name); err == nil && old.Status != ArtifactExpired {
		return s.v3Container(r, old), nil
	}
	var expires time.Time
	if q.RetentionDays < 0 {
		return nil, usererr.BadFieldf("RetentionDays", "RetentionDays may not be negative")
	}
	if q.RetentionDays > 0 && q.RetentionDays <= 100_000 { // beyond: the node's longest
		expires = s.now().Add(time.Duration(q.RetentionDays) * 24 * time.Hour)
	}
	a, err := s.createArtifact(r.Context(), c, q.Name, expires)
	if err != nil {
		return nil, err
	}
	return s.v3Container(r, a), nil
}

// v3List lists the run's finished artifacts.
func (s *Service) v3List(_ http.ResponseWriter, r *http.Request, c runtimeClaims) (any, error) {
	list, err := s.queryArtifacts(r.Context(), `SELECT `+artifactCols+` FROM actions_artifacts WHERE run_id = $1 AND status = $2 ORDER BY id`, c.Run, ArtifactReady)
	if err != nil {
		return nil, err
	}
	value := make([]map[string]any, 0, len(list))
	for _, a := range list {
		ct := s.v3Container(r, a)
		ct["fileContainerResourceUrl"] = ct["url"].(string) + "/path"
		value = append(value, ct)
	}
	return map[string]any{"count": len(value), "value": value}, nil
}

// v3Upload stores one chunk of one file: itemPath "<name>/<path>", the
// bytes at Content-Range of the file as sent (gzip when Content-Encoding
// says so).
func (s *Service) v3Upload(w http.ResponseWriter, r *http.Request, c runtimeClaims) (any, error) {
	a, err := s.v3Open(r, c)
	if err != nil {
		return nil, err
	}
	item, err := itemIn(a, r.URL.Query().Get("itemPath"))
	if err != nil {
		return nil, err
	}
	start, end, total, err := contentRange(r.Header.Get("Content-Range"))
	if err != nil {
		return nil, err
	}
	staged, err := s.v3Admit(s.v3JobDir(a.ID, c.Job), item, total)
	if err != nil {
		return nil, err
	}
	gz := strings.EqualFold(r.Header.Get("Content-Encoding"), "gzip")
	if err := s.v3WriteChunk(staged, gz, start, end, http.MaxBytesReader(w, r.Body, end-start+2)); err != nil {
		return nil, err
	}
	return map[string]any{"path": a.Name + "/" + item, "fileLength": total}, nil
}

// v3Artifact is the artifact of the path's id, in the token's run.
func (s *Service) v3Artifact(r *http.Request, c runtimeClaims) (Artifact, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		return Artifact{}, usererr.Missingf("no artifact %s", r.PathValue("id"))
	}
	a, err := s.artifact(r.Context(), id)
	if err != nil || a.RunID != c.Run {
		return Artifact{}, usererr.Missingf("the run has no artifact %s", r.PathValue("id"))
	}
	return a, nil
}

// v3Open is the path's artifact while it takes files: pending, or ready
// to be added to.
func (s *Service) v3Open(r *http.Request, c runtimeClaims) (Artifact, error) {
	a, err := s.v3Artifact(r, c)
	if err != nil {
		return Artifact{}, err
	}
	if a.Status == ArtifactExpired {
		return Artifact{}, usererr.Clashf("artifact_expired", "the artifact %q has expired and takes no more files", a.Name)
	}
	return a, nil
}

// itemIn is the file's path inside artifact a from an itemPath: it must
// name a file under the artifact's own directory, with no way out of it.
func itemIn(a Artifact, itemPath string) (string, error) {
	p := strings.ReplaceAll(itemPath, "\\", "/")
	rest, ok := strings.CutPrefix(p, a.Name+"/")
	clean := path.Clean(rest)
	if !ok || rest == "" || clean != rest || clean == "." || strings.HasPrefix(clean, "../") || clean == ".." || path.IsAbs(clean) || strings.ContainsRune(clean, 0) {
		return "", usererr.BadFieldf("itemPath", "itemPath %q is not a file of the artifact %q", itemPath, a.Name)
	}
	return clean, nil
}

// contentRange reads "bytes start-end/total".
func contentRange(h string) (start, end, total int64, err error) {
	bad := usererr.BadFieldf("Content-Range", "Content-Range %q is not bytes start-end/total", h)
	spec, ok := strings.CutPrefix(h, "bytes ")
	rng, tot, ok2 := strings.Cut(spec, "/")
	from, to, ok3 := strings.Cut(rng, "-")
	if !ok || !ok2 || !ok3 {
		return 0, 0, 0, bad
	}
	if start, err = strconv.ParseInt(from, 10, 64); err != nil {
		return 0, 0, 0, bad
	}
	if end, err = strconv.ParseInt(to, 10, 64); err != nil {
		return 0, 0, 0, bad
	}
	if total, err = strconv.ParseInt(tot, 10, 64); err != nil {
		return 0, 0, 0, bad
	}
	if total == 0 && start == 0 && end == -1 { // an empty file: "bytes 0--1/0"
		return 0, -1, 0, nil
	}
	if start < 0 || end < start || end >= total {
		return 0, 0, 0, bad
	}
	return start, end, total, nil
}

// The staged files of a v3 upload: <dir>/<id>.v3/<hash of the path>
// (".gz" when sent compressed) holds the file's bytes as sent, and
// "<hash>.path" its path.

func (s *Service) v3Dir(id int64) string {
	return filepath.Join(s.cfg.ArtifactDir, strconv.FormatInt(id, 10)+".v3")
}

// v3JobDir holds the files job stages for artifact id: each job's upload
// is finalized apart, so the jobs of a matrix may add to one artifact at
// once.
func (s *Service) v3JobDir(id, job int64) string {
	return filepath.Join(s.v3Dir(id), strconv.FormatInt(job, 10))
}

// v3Admit is where item is staged in dir (its bytes, without ".gz"). A
// new item is admitted while dir has fewer than maxV3Items and its staged
// bytes with the item's total stay under the cap; later chunks of an item
// only check their own total.
func (s *Service) v3Admit(dir string, item string, total int64) (string, error) {
	tooLarge := usererr.New(usererr.TooLarge, usererr.CodeTooLarge, fmt.Sprintf("an artifact is at most %d bytes", s.cfg.ArtifactMaxSize))
	if total > s.cfg.ArtifactMaxSize {
		return "", tooLarge
	}
	sum := sha256.Sum256([]byte(item))
	name := filepath.Join(dir, hex.EncodeToString(sum[:16]))
	if _, err := os.Stat(name + ".path"); err == nil {
		return name, nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("make the upload directory: %w", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", fmt.Errorf("list the staged files: %w", err)
	}
	if len(entries) >= 2*maxV3Items {
		return "", usererr.BadFieldf("itemPath", "an artifact holds at most %d files", maxV3Items)
	}
	staged := int64(0)
	for _, e := range entries {
		if info, err := e.Info(); err == nil {
			staged += info.Size()
		}
	}
	if staged+total > s.cfg.ArtifactMaxSize {
		return "", tooLarge
	}
	if err := os.WriteFile(name+".path", []byte(item), 0o600); err != nil {
		return "", fmt.Errorf("record the file's path: %w", err)
	}
	return name, nil
}

// v3WriteChunk writes a chunk at start of the staged file name.
func (s *Service) v3WriteChunk(name string, gz bool, start, end int64, body io.Reader) error {
	data := name
	if gz {
		data += ".gz"
	}
	f, err := os.OpenFile(data, os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("open the staged file: %w", err)
	}
	defer f.Close()
	n, err := io.Copy(io.NewOffsetWriter(f, start), body)
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) || (err == nil && n != end-start+1) {
		return usererr.BadFieldf("Content-Range", "the chunk has %d bytes, not the %d its Content-Range says", n, end-start+1)
	}
	if err != nil {
		return fmt.Errorf("write the chunk: %w", err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("sync the chunk: %w", err)
	}
	return f.Close()
}

// v3Finalize ({Size}, ?artifactName=) puts the files the token's job
// staged into the artifact's zip: a pending artifact's zip is made of
// them and finalized as v4's is; a ready one's is made again with them
// added (a file of the same path replaced). Size must be their total
// length, unpacked. Finalizes of one node take turns, so two jobs adding
// to one artifact each keep the other's files.
func (s *Service) v3Finalize(_ http.ResponseWriter, r *http.Request, c runtimeClaims) (any, error) {
	var q struct{ Size int64 }
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&q); err != nil {
		return nil, usererr.BadFieldf("body", "the request is not JSON: %v", err)
	}
	s.v3Mu.Lock()
	defer s.v3Mu.Unlock()
	a, err := s.artifactNamed(r.Context(), c.Run, r.URL.Query().Get("artifactName"))
	if err != nil {
		return nil, err
	}
	dir := s.v3JobDir(a.ID, c.Job)
	files, err := v3Files(dir)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 && a.Status != ArtifactPending {
		return nil, usererr.Clashf("artifact_finalized", "the artifact %q is already finalized, and this job added no files to it", a.Name)
	}
	switch a.Status {
	case ArtifactPending:
		a, err = s.v3First(r.Context(), c, a, files, q.Size)
	case ArtifactReady:
		a, err = s.v3Add(r.Context(), a, files, q.Size)
	default:
		err = usererr.Clashf("artifact_expired", "the artifact %q has expired", a.Name)
	}
	if err != nil {
		return nil, err
	}
	if err := os.RemoveAll(dir); err != nil {
		return nil, fmt.Errorf("remove the staged files: %w", err)
	}
	return s.v3Container(r, a), nil
}

// v3First makes pending artifact a's zip of files and finalizes it.
func (s *Service) v3First(ctx context.Context, c runtimeClaims, a Artifact, files []v3File, size int64) (Artifact, error) {
	zipped, unpacked, err := s.v3Zip(s.artifactFile(a.ID), nil, files)
	if err != nil {
		return Artifact{}, err
	}
	if unpacked != size {
		_ = os.Remove(s.artifactFile(a.ID))
		return Artifact{}, usererr.BadFieldf("Size", "the artifact's files hold %d bytes, not %d", unpacked, size)
	}
	return s.finalizeArtifact(ctx, c, a.Name, zipped, "")
}

// v3Add makes ready artifact a's zip again with files added, and records
// its new size, hash and CID. The new zip replaces the old one whole; a
// crash before the row is updated leaves the job's files staged, so the
// client's retry makes the same zip and records it.
func (s *Service) v3Add(ctx context.Context, a Artifact, files []v3File, size int64) (Artifact, error) {
	old, err := zip.OpenReader(s.artifactFile(a.ID))
	if err != nil {
		return Artifact{}, fmt.Errorf("open artifact %d: %w", a.ID, err)
	}
	defer old.Close()
	next := s.artifactFile(a.ID) + ".next"
	zipped, unpacked, err := s.v3Zip(next, &old.Reader, files)
	if err == nil && unpacked != size {
		err = usererr.BadFieldf("Size", "the files hold %d bytes, not %d", unpacked, size)
	}
	if err != nil {
		_ = os.Remove(next)
		return Artifact{}, err
	}
	if err := os.Rename(next, s.artifactFile(a.ID)); err != nil {
		return Artifact{}, fmt.Errorf("place artifact %d's new zip: %w", a.ID, err)
	}
	f, err := os.Open(s.artifactFile(a.ID))
	if err != nil {
		return Artifact{}, fmt.Errorf("open artifact %d: %w", a.ID, err)
	}
	defer f.Close()
	_, sum, err := hashFile(f)
	if err != nil {
		return Artifact{}, fmt.Errorf("hash artifact %d: %w", a.ID, err)
	}
	cid, err := s.publishArtifact(ctx, a, f)
	if err != nil {
		return Artifact{}, err
	}
	_, err = s.db.ExecContext(ctx, `UPDATE actions_artifacts SET size = $1, sha256 = $2, cid = $3, updated_ms = $4 WHERE id = $5 AND status = $6`,
		zipped, sum, cid, s.ms(), a.ID, ArtifactReady)
	if err != nil {
		return Artifact{}, fmt.Errorf("record artifact %d's new zip: %w", a.ID, err)
	}
	s.bump()
	return s.artifact(ctx, a.ID)
}

// v3File is a staged file: its path in the artifact and where it is.
type v3File struct {
	Path, Data string
	Gzip       bool
}

// v3Files are the files staged in dir, by path.
func v3Files(dir string) ([]v3File, error) {
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("list the staged files: %w", err)
	}
	var files []v3File
	for _, e := range entries {
		base, ok := strings.CutSuffix(e.Name(), ".path")
		if !ok {
			continue
		}
		p, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("read a staged file's path: %w", err)
		}
		f := v3File{Path: string(p), Data: filepath.Join(dir, base)}
		if _, err := os.Stat(f.Data + ".gz"); err == nil {
			f.Data, f.Gzip = f.Data+".gz", true
		}
		files = append(files, f)
	}
	slices.SortFunc(files, func(a, b v3File) int { return strings.Compare(a.Path, b.Path) })
	return files, nil
}

// v3Zip writes a zip to path: old's files (if any) but those of a path
// in files, then the staged files, unpacked. It returns the zip's size
// and the staged files' unpacked total.
func (s *Service) v3Zip(path string, old *zip.Reader, files []v3File) (zipped, unpacked int64, err error) {
	pr, pw := io.Pipe()
	done := make(chan int64, 1)
	go func() {
		n, err := writeZip(pw, old, files, s.cfg.ArtifactMaxSize)
		pw.CloseWithError(err)
		done <- n
	}()
	zipped, err = writeAtomically(path, pr, s.cfg.ArtifactMaxSize)
	pr.CloseWithError(io.ErrClosedPipe) // stops the writer if the file failed
	return zipped, <-done, err
}

// writeZip writes old's files but those replaced, then files, into a zip
// on w, at most limit bytes unpacked in all; it returns files' total.
func writeZip(w io.Writer, old *zip.Reader, files []v3File, limit int64) (int64, error) {
	zw := zip.NewWriter(w)
	kept := int64(0)
	if old != nil {
		replaced := map[string]bool{}
		for _, f := range files {
			replaced[f.Path] = true
		}
		for _, f := range old.File {
			if replaced[f.Name] {
				continue
			}
			if err := zw.Copy(f); err != nil {
				return 0, fmt.Errorf("copy %s into the new zip: %w", f.Name, err)
			}
			kept += int64(f.UncompressedSize64)
		}
	}
	var total int64
	for _, f := range files {
		n, err := addToZip(zw, f, limit-kept-total)
		total += n
		if err != nil {
			return total, err
		}
	}
	return total, zw.Close()
}

func addToZip(zw *zip.Writer, f v3File, left int64) (int64, error) {
	src, err := os.Open(f.Data)
	if err != nil {
		return 0, fmt.Errorf("open a staged file: %w", err)
	}
	defer src.Close()
	var r io.Reader = src
	if f.Gzip {
		gz, err := gzip.NewReader(src)
		if err != nil {
			return 0, usererr.BadFieldf("itemPath", "the file %q was sent as gzip but is not: %v", f.Path, err)
		}
		r = gz
	}
	dst, err := zw.CreateHeader(&zip.FileHeader{Name: f.Path, Method: zip.Deflate, Modified: time.Now()})
	if err != nil {
		return 0, fmt.Errorf("add %s to the zip: %w", f.Path, err)
	}
	n, err := io.Copy(dst, io.LimitReader(r, left+1))
	if err == nil && n > left {
		err = usererr.New(usererr.TooLarge, usererr.CodeTooLarge, "the artifact's files are too large")
	}
	if err != nil {
		if _, ok := usererr.As(err); !ok {
			err = usererr.BadFieldf("itemPath", "the file %q cannot be read back: %v", f.Path, err)
		}
		return n, err
	}
	return n, nil
}

// v3Items lists an artifact's files (?itemPath=<name>) with where to
// download each.
func (s *Service) v3Items(_ http.ResponseWriter, r *http.Request, c runtimeClaims) (any, error) {
	a, zr, closeZip, err := s.v3Ready(r, c)
	if err != nil {
		return nil, err
	}
	defer closeZip()
	base := fmt.Sprintf("%s%s_apis/pipelines/workflows/%d/artifacts/%d/download", s.baseURL(r), PipelinePrefix, a.RunID, a.ID)
	value := []map[string]any{}
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, "/") {
			continue
		}
		p := a.Name + "/" + f.Name
		value = append(value, map[string]any{"containerId": a.ID, "path": p, "itemType": "file", "status": "created",
			"fileLength": f.UncompressedSize64, "contentLocation": base + "?itemPath=" + urlQueryEscape(p)})
	}
	return map[string]any{"count": len(value), "value": value}, nil
}

// v3Download serves one file of an artifact (?itemPath=<name>/<path>).
func (s *Service) v3Download(w http.ResponseWriter, r *http.Request, c runtimeClaims) (any, error) {
	a, zr, closeZip, err := s.v3Ready(r, c)
	if err != nil {
		return nil, err
	}
	defer closeZip()
	item, err := itemIn(a, r.URL.Query().Get("itemPath"))
	if err != nil {
		return nil, err
	}
	for _, f := range zr.File {
		if f.Name != item {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("open %s in artifact %d: %w", item, a.ID, err)
		}
		defer rc.Close()
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Length", strconv.FormatUint(f.UncompressedSize64, 10))
		w.Header().Set("Cache-Control", "private, no-store")
		_, _ = io.Copy(w, rc)
		return nil, nil
	}
	return nil, usererr.Missingf("the artifact %q has no file %q", a.Name, item)
}

// v3Ready is the path's finished artifact of the token's run, opened.
func (s *Service) v3Ready(r *http.Request, c runtimeClaims) (Artifact, *zip.Reader, func(), error) {
	a, err := s.v3Artifact(r, c)
	if err != nil {
		return Artifact{}, nil, nil, err
	}
	if a.Status != ArtifactReady {
		return Artifact{}, nil, nil, usererr.Missingf("the run has no finished artifact %s", r.PathValue("id"))
	}
	zf, err := zip.OpenReader(s.artifactFile(a.ID))
	if err != nil {
		return Artifact{}, nil, nil, usererr.BadFieldf("id", "the artifact %q is not a zip: %v", a.Name, err)
	}
	return a, &zf.Reader, func() { zf.Close() }, nil
}

// urlQueryEscape escapes an item path for a query, keeping its slashes.
func urlQueryEscape(s string) string {
	return strings.ReplaceAll(url.QueryEscape(s), "%2F", "/")
}
