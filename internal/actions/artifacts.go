package actions

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dforge/dforge/internal/usererr"
)

// Artifacts: the files a job uploads with actions/upload-artifact@v4,
// kept on this node for a retention period. The protocol (artifacts_rpc.go)
// creates a pending row, the client PUTs the zip to a signed URL (blocks,
// then a block list, as to Azure), and finalize checks size and hash
// before the row turns ready. A public repository's ready artifact also
// goes into the blockstore, as release assets do, and keeps its CID.

// Artifact states.
const (
	ArtifactPending = "pending" // created, its file not yet complete
	ArtifactReady   = "ready"
	ArtifactExpired = "expired" // its retention passed: the file is gone
)

const (
	defaultArtifactRetention = 90 * 24 * time.Hour
	defaultArtifactMaxSize   = 1 << 30
	maxArtifactName          = 255
	// pendingArtifactTTL is how long an upload may stay unfinished before
	// the sweep drops it (a job that died mid-upload).
	pendingArtifactTTL = 24 * time.Hour
)

// Artifact is a job's uploaded artifact.
type Artifact struct {
	ID, RunID, JobID int64
	Repo             uint64
	Name, Status     string
	Size             int64
	SHA256, CID      string
	Created, Updated int64 // Unix ms
	Expires          int64 // Unix ms
}

// ArtifactFilter narrows a repository's list of artifacts.
type ArtifactFilter struct {
	Run           int64 // 0: every run's
	Name          string
	Limit, Offset int
}

const artifactCols = `id, run_id, job_id, repo_id, name, status, size, sha256, cid, created_ms, updated_ms, expires_ms`

func scanArtifact(row interface{ Scan(...any) error }) (Artifact, error) {
	var a Artifact
	err := row.Scan(&a.ID, &a.RunID, &a.JobID, &a.Repo, &a.Name, &a.Status, &a.Size, &a.SHA256, &a.CID, &a.Created, &a.Updated, &a.Expires)
	return a, err
}

// Artifacts are repo's finished artifacts (ready or expired), newest
// first, and how many there are.
func (s *Service) Artifacts(ctx context.Context, repo uint64, f ArtifactFilter) ([]Artifact, int64, error) {
	where := `repo_id = $1 AND status <> '` + ArtifactPending + `'`
	args := []any{repo}
	if f.Run != 0 {
		args = append(args, f.Run)
		where += fmt.Sprintf(" AND run_id = $%d", len(args))
	}
	if f.Name != "" {
		args = append(args, f.Name)
		where += fmt.Sprintf(" AND name = $%d", len(args))
	}
	var total int64
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM actions_artifacts WHERE `+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count artifacts: %w", err)
	}
	if f.Limit <= 0 {
		f.Limit = 50
	}
	q := fmt.Sprintf(`SELECT %s FROM actions_artifacts WHERE %s ORDER BY id DESC LIMIT %d OFFSET %d`, artifactCols, where, f.Limit, max(f.Offset, 0))
	out, err := s.queryArtifacts(ctx, q, args...)
	return out, total, err
}

func (s *Service) queryArtifacts(ctx context.Context, q string, args ...any) ([]Artifact, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("read artifacts: %w", err)
	}
	defer rows.Close()
	var out []Artifact
	for rows.Next() {
		a, err := scanArtifact(rows)
		if err != nil {
			return nil, fmt.Errorf("read an artifact: %w", err)
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// ArtifactByID is repo's finished artifact id.
func (s *Service) ArtifactByID(ctx context.Context, repo uint64, id int64) (Artifact, error) {
	a, err := s.artifact(ctx, id)
	if err != nil || a.Repo != repo || a.Status == ArtifactPending {
		return Artifact{}, usererr.Missingf("the repository has no artifact %d", id)
	}
	return a, nil
}

func (s *Service) artifact(ctx context.Context, id int64) (Artifact, error) {
	a, err := scanArtifact(s.db.QueryRowContext(ctx, `SELECT `+artifactCols+` FROM actions_artifacts WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Artifact{}, usererr.Missingf("no artifact %d", id)
	}
	if err != nil {
		return Artifact{}, fmt.Errorf("read artifact %d: %w", id, err)
	}
	return a, nil
}

// artifactNamed is run's artifact called name, in any state.
func (s *Service) artifactNamed(ctx context.Context, run int64, name string) (Artifact, error) {
	a, err := scanArtifact(s.db.QueryRowContext(ctx, `SELECT `+artifactCols+` FROM actions_artifacts WHERE run_id = $1 AND name = $2`, run, name))
	if errors.Is(err, sql.ErrNoRows) {
		return Artifact{}, usererr.Missingf("the run has no artifact %q", name)
	}
	if err != nil {
		return Artifact{}, fmt.Errorf("read artifact %q: %w", name, err)
	}
	return a, nil
}

// DeleteArtifact removes repo's artifact id, row and file. The blocks of
// a public one stay: other nodes may hold and serve them already.
func (s *Service) DeleteArtifact(ctx context.Context, repo uint64, id int64) error {
	a, err := s.ArtifactByID(ctx, repo, id)
	if err != nil {
		return err
	}
	return s.dropArtifact(ctx, a)
}

func (s *Service) dropArtifact(ctx context.Context, a Artifact) error {
	// The file first: a crash between leaves a row the sweep or a retry
	// removes, never a file no row names.
	if err := s.removeArtifactFiles(a.ID); err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, `DELETE FROM actions_artifacts WHERE id = $1`, a.ID); err != nil {
		return fmt.Errorf("delete artifact %d: %w", a.ID, err)
	}
	s.bump()
	return nil
}

// validArtifactName refuses what cannot be a file's name on any runner's
// system, as upload-artifact does.
func validArtifactName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return usererr.BadFieldf("name", "an artifact needs a name")
	case len(name) > maxArtifactName || !utf8.ValidString(name):
		return usererr.BadFieldf("name", "an artifact's name is at most %d bytes of UTF-8", maxArtifactName)
	case strings.ContainsAny(name, "/\\\":<>|*?\r\n\x00") || name == "." || name == "..":
		return usererr.BadFieldf("name", "an artifact's name may not hold / \\ \" : < > | * ? or line breaks")
	}
	return nil
}

// createArtifact starts run's artifact name from job: a pending row
// expiring at expires (0: the default retention), capped by the node's.
// A pending one of the same name (an upload retried) is replaced; a
// finished one is a conflict, as on GitHub.
func (s *Service) createArtifact(ctx context.Context, tok runtimeClaims, name string, expires time.Time) (Artifact, error) {
	if err := validArtifactName(name); err != nil {
		return Artifact{}, err
	}
	now := s.now()
	longest := now.Add(s.cfg.ArtifactRetention)
	if expires.IsZero() || expires.After(longest) {
		expires = longest
	}
	if !expires.After(now) {
		return Artifact{}, usererr.BadFieldf("expiresAt", "an artifact must expire in the future")
	}
	if old, err := s.artifactNamed(ctx, tok.Run, name); err == nil {
		if old.Status != ArtifactPending {
			return Artifact{}, usererr.Clashf("artifact_exists", "the run already has an artifact %q", name)
		}
		if err := s.dropArtifact(ctx, old); err != nil {
			return Artifact{}, err
		}
	} else if _, ok := usererr.As(err); !ok {
		return Artifact{}, err
	}
	var id int64
	err := s.db.QueryRowContext(ctx, `INSERT INTO actions_artifacts (run_id, job_id, repo_id, name, status, created_ms, updated_ms, expires_ms)
		VALUES ($1, $2, $3, $4, $5, $6, $6, $7) RETURNING id`, tok.Run, tok.Job, tok.Repo, name, ArtifactPending, now.UnixMilli(), expires.UnixMilli()).Scan(&id)
	if err != nil { // most likely a concurrent create of the same name
		if _, again := s.artifactNamed(ctx, tok.Run, name); again == nil {
			return Artifact{}, usererr.Clashf("artifact_exists", "the run already has an artifact %q", name)
		}
		return Artifact{}, fmt.Errorf("create artifact %q: %w", name, err)
	}
	return s.artifact(ctx, id)
}

// finalizeArtifact checks that the uploaded file of run's pending
// artifact name has size bytes and the SHA-256 hash ("sha256:<hex>" or
// hex; "" skips the check), stores a public repository's in the
// blockstore, and only then marks it ready.
func (s *Service) finalizeArtifact(ctx context.Context, tok runtimeClaims, name string, size int64, hash string) (Artifact, error) {
	a, err := s.artifactNamed(ctx, tok.Run, name)
	if err != nil {
		return Artifact{}, err
	}
	if a.Status != ArtifactPending {
		return Artifact{}, usererr.Clashf("artifact_finalized", "the artifact %q is already finalized", name)
	}
	f, err := os.Open(s.artifactFile(a.ID))
	if errors.Is(err, os.ErrNotExist) {
		return Artifact{}, usererr.BadFieldf("name", "the artifact %q has no uploaded file", name)
	}
	if err != nil {
		return Artifact{}, fmt.Errorf("open artifact %d: %w", a.ID, err)
	}
	defer f.Close()
	got, sum, err := hashFile(f)
	if err != nil {
		return Artifact{}, fmt.Errorf("hash artifact %d: %w", a.ID, err)
	}
	if got != size {
		return Artifact{}, usererr.BadFieldf("size", "the uploaded file has %d bytes, not %d", got, size)
	}
	if want := strings.TrimPrefix(strings.ToLower(hash), "sha256:"); want != "" && want != sum {
		return Artifact{}, usererr.BadFieldf("hash", "the uploaded file's SHA-256 is %s, not %s", sum, want)
	}
	cid, err := s.publishArtifact(ctx, a, f)
	if err != nil {
		return Artifact{}, err
	}
	res, err := s.db.ExecContext(ctx, `UPDATE actions_artifacts SET status = $1, size = $2, sha256 = $3, cid = $4, updated_ms = $5 WHERE id = $6 AND status = $7`,
		ArtifactReady, got, sum, cid, s.ms(), a.ID, ArtifactPending)
	if err != nil {
		return Artifact{}, fmt.Errorf("finalize artifact %d: %w", a.ID, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return Artifact{}, usererr.Clashf("artifact_finalized", "the artifact %q is already finalized", name)
	}
	s.bump()
	return s.artifact(ctx, a.ID)
}

// hashFile reads f to its end: its size and SHA-256 (hex).
func hashFile(f io.Reader) (int64, string, error) {
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return 0, "", err
	}
	return n, hex.EncodeToString(h.Sum(nil)), nil
}

// publishArtifact puts a public repository's artifact into the blockstore
// and returns its CID; a private one's never leaves this node's files.
func (s *Service) publishArtifact(ctx context.Context, a Artifact, f *os.File) (string, error) {
	if s.cfg.PutFile == nil {
		return "", nil
	}
	rec, err := s.cfg.Index.RepoByID(ctx, a.Repo)
	if err != nil {
		return "", fmt.Errorf("read the artifact's repository: %w", err)
	}
	if rec.Private {
		return "", nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", fmt.Errorf("rewind artifact %d: %w", a.ID, err)
	}
	cid, err := s.cfg.PutFile(ctx, f, s.cfg.ArtifactMaxSize)
	if err != nil {
		return "", fmt.Errorf("store artifact %d as blocks: %w", a.ID, err)
	}
	return cid, nil
}

// sweepArtifacts removes the files of artifacts past their retention
// (their rows stay, expired, so lists say what was there) and drops
// uploads left unfinished.
func (s *Service) sweepArtifacts(ctx context.Context) error {
	now := s.now()
	old, err := s.queryArtifacts(ctx, `SELECT `+artifactCols+` FROM actions_artifacts WHERE (status = $1 AND expires_ms <= $2) OR (status = $3 AND (created_ms <= $4 OR expires_ms <= $2)) LIMIT 500`,
		ArtifactReady, now.UnixMilli(), ArtifactPending, now.Add(-pendingArtifactTTL).UnixMilli())
	if err != nil {
		return err
	}
	for _, a := range old {
		if a.Status == ArtifactPending {
			if err := s.dropArtifact(ctx, a); err != nil {
				return err
			}
			continue
		}
		if err := s.removeArtifactFiles(a.ID); err != nil {
			return err
		}
		if _, err := s.db.ExecContext(ctx, `UPDATE actions_artifacts SET status = $1, updated_ms = $2 WHERE id = $3 AND status = $4`,
			ArtifactExpired, now.UnixMilli(), a.ID, ArtifactReady); err != nil {
			return fmt.Errorf("expire artifact %d: %w", a.ID, err)
		}
		s.bump()
	}
	return nil
}

// The files: <dir>/<id>.zip, and while uploading <dir>/<id>.blocks/ with
// one file per staged block.

func (s *Service) artifactFile(id int64) string {
	return filepath.Join(s.cfg.ArtifactDir, strconv.FormatInt(id, 10)+".zip")
}

func (s *Service) blockDir(id int64) string {
	return filepath.Join(s.cfg.ArtifactDir, strconv.FormatInt(id, 10)+".blocks")
}

// blockFile is where block blockID of artifact id is staged: the id is
// the client's (base64, any bytes), so the name is its hash.
func (s *Service) blockFile(id int64, blockID string) string {
	sum := sha256.Sum256([]byte(blockID))
	return filepath.Join(s.blockDir(id), hex.EncodeToString(sum[:16]))
}

func (s *Service) removeArtifactFiles(id int64) error {
	if err := os.RemoveAll(s.blockDir(id)); err != nil {
		return fmt.Errorf("remove artifact %d's blocks: %w", id, err)
	}
	if err := os.RemoveAll(s.v3Dir(id)); err != nil {
		return fmt.Errorf("remove artifact %d's staged files: %w", id, err)
	}
	for _, f := range []string{s.artifactFile(id), s.artifactFile(id) + ".next"} { // .next: a v3 zip being made again
		if err := os.Remove(f); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("remove artifact %d: %w", id, err)
		}
	}
	return nil
}

// writeAtomically writes r (at most limit bytes) to path through a
// temporary file renamed into place, so path is whole or absent.
func writeAtomically(path string, r io.Reader, limit int64) (int64, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return 0, fmt.Errorf("make the artifact directory: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".upload-*")
	if err != nil {
		return 0, fmt.Errorf("create a temporary file: %w", err)
	}
	defer os.Remove(tmp.Name()) // after the rename, a no-op
	n, err := io.Copy(tmp, io.LimitReader(r, limit+1))
	if err == nil && n > limit {
		err = usererr.New(usererr.TooLarge, usererr.CodeTooLarge, fmt.Sprintf("an artifact is at most %d bytes", limit))
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return 0, fmt.Errorf("place the upload: %w", err)
	}
	return n, nil
}

// uploadable is artifact id when it still takes data.
func (s *Service) uploadable(ctx context.Context, id int64) (Artifact, error) {
	a, err := s.artifact(ctx, id)
	if err != nil {
		return Artifact{}, err
	}
	if a.Status != ArtifactPending {
		return Artifact{}, usererr.Clashf("artifact_finalized", "the artifact is finalized and takes no more data")
	}
	return a, nil
}

// putBlock stages one block of artifact id.
func (s *Service) putBlock(ctx context.Context, id int64, blockID string, body io.Reader) error {
	if _, err := s.uploadable(ctx, id); err != nil {
		return err
	}
	if blockID == "" || len(blockID) > 1024 {
		return usererr.BadFieldf("blockid", "a block needs an id of at most 1024 bytes")
	}
	// The staged blocks together stay under the cap too, so a job cannot
	// fill the disk with blocks it never commits (concurrent PUTs may pass
	// it by their own sizes at most).
	left := s.cfg.ArtifactMaxSize - s.stagedBytes(id)
	if left <= 0 {
		return usererr.New(usererr.TooLarge, usererr.CodeTooLarge, fmt.Sprintf("an artifact is at most %d bytes", s.cfg.ArtifactMaxSize))
	}
	_, err := writeAtomically(s.blockFile(id, blockID), body, left)
	return err
}

// stagedBytes is the size of artifact id's staged blocks.
func (s *Service) stagedBytes(id int64) int64 {
	entries, _ := os.ReadDir(s.blockDir(id))
	var n int64
	for _, e := range entries {
		if info, err := e.Info(); err == nil {
			n += info.Size()
		}
	}
	return n
}

// putWhole stores artifact id's file from one request (a small upload).
func (s *Service) putWhole(ctx context.Context, id int64, body io.Reader) error {
	if _, err := s.uploadable(ctx, id); err != nil {
		return err
	}
	_, err := writeAtomically(s.artifactFile(id), body, s.cfg.ArtifactMaxSize)
	return err
}

// commitBlocks assembles artifact id's file from its staged blocks in
// the order given, then drops the blocks.
func (s *Service) commitBlocks(ctx context.Context, id int64, blockIDs []string) error {
	if _, err := s.uploadable(ctx, id); err != nil {
		return err
	}
	files := make([]*os.File, 0, len(blockIDs))
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	readers := make([]io.Reader, 0, len(blockIDs))
	for _, b := range blockIDs {
		f, err := os.Open(s.blockFile(id, b))
		if errors.Is(err, os.ErrNotExist) {
			return usererr.BadFieldf("blockid", "the block list names block %q, which was not uploaded", b)
		}
		if err != nil {
			return fmt.Errorf("open a block: %w", err)
		}
		files = append(files, f)
		readers = append(readers, f)
	}
	if _, err := writeAtomically(s.artifactFile(id), io.MultiReader(readers...), s.cfg.ArtifactMaxSize); err != nil {
		return err
	}
	if err := os.RemoveAll(s.blockDir(id)); err != nil {
		return fmt.Errorf("remove the committed blocks: %w", err)
	}
	return nil
}
