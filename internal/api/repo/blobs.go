package repo

import (
	"encoding/base64"
	"errors"
	"fmt"
	"github.com/dforge/dforge/internal/api"
	"io"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"

	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/usererr"
)

// A file's contents (Gitea's ContentsResponse, or a directory's listing),
// its raw bytes (/raw and /media), and a blob by id (/git/blobs/{sha}).

func (a *Handler) getContents(w http.ResponseWriter, r *http.Request) error {
	c, e, commit, ref, err := a.fileAt(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	// 1. A directory lists its entries, without content.
	if e.Type == "tree" {
		entries, err := gitstore.Tree(ctx, c.Dir, commit, e.Path)
		if err != nil {
			return gitError(err)
		}
		out := make([]api.ContentJSON, 0, len(entries))
		for _, child := range entries {
			out = append(out, c.Content(child, ref))
		}
		api.WriteJSON(w, http.StatusOK, out)
		return nil
	}
	// 2. A file, a symlink or a submodule, with its last commit.
	j := c.Content(e, ref)
	if last, err := gitstore.Log(ctx, c.Dir, commit, gitstore.LogOptions{Path: e.Path, Limit: 1}); err == nil && len(last) == 1 {
		j.LastCommitSHA = last[0].ID
	}
	if e.Type != "blob" {
		api.WriteJSON(w, http.StatusOK, j)
		return nil
	}
	// 3. The content, unless it is too large or binary.
	if e.Size > api.MaxContentSize {
		j.TooLarge = true
		api.WriteJSON(w, http.StatusOK, j)
		return nil
	}
	data, err := gitstore.ReadBlob(ctx, c.Dir, e.ID, api.MaxContentSize)
	if err != nil {
		return err
	}
	if e.Kind() == "symlink" {
		j.Target = api.Ptr(string(data))
	}
	if gitstore.IsBinary(data) {
		j.Binary = true
		api.WriteJSON(w, http.StatusOK, j)
		return nil
	}
	j.Encoding, j.Content = api.Ptr("base64"), api.Ptr(base64.StdEncoding.EncodeToString(data))
	api.WriteJSON(w, http.StatusOK, j)
	return nil
}

// rawType is what a raw file is served as: text as plain text, images,
// audio, video and PDF as themselves (for <img> and friends), the rest
// as bytes. Nothing is ever served as HTML or script.
func rawType(head []byte, name string) string {
	if strings.EqualFold(path.Ext(name), ".svg") {
		return "image/svg+xml"
	}
	if !gitstore.IsBinary(head) {
		return "text/plain; charset=utf-8"
	}
	sniffed := http.DetectContentType(head)
	for _, ok := range []string{"image/", "audio/", "video/", "application/pdf"} {
		if strings.HasPrefix(sniffed, ok) {
			return sniffed
		}
	}
	return "application/octet-stream"
}

// getRaw streams a file (raw and media alike: there is no LFS), with
// headers that keep a browser from running anything in it.
func (a *Handler) getRaw(w http.ResponseWriter, r *http.Request) error {
	c, e, _, _, err := a.fileAt(r)
	if err != nil {
		return err
	}
	if e.Type != "blob" {
		return usererr.Newf(usererr.NotFound, "path_not_found", "%s is not a file", e.Path)
	}
	etag := `"` + e.ID + `"`
	h := w.Header()
	h.Set("ETag", etag)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox")
	if c.Repo.Private {
		h.Set("Cache-Control", "private, no-cache")
	} else {
		h.Set("Cache-Control", "public, no-cache")
	}
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	blob, err := gitstore.OpenBlob(r.Context(), c.Dir, e.ID)
	if err != nil {
		return err
	}
	defer blob.Close()
	head := make([]byte, 8000)
	n, err := io.ReadFull(blob, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return fmt.Errorf("read blob %s: %w", e.ID, err)
	}
	disposition := "inline"
	if r.URL.Query().Has("download") {
		disposition = "attachment"
	}
	h.Set("Content-Disposition", mime.FormatMediaType(disposition, map[string]string{"filename": e.Name}))
	h.Set("Content-Type", rawType(head[:n], e.Name))
	h.Set("Content-Length", strconv.FormatInt(e.Size, 10))
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return nil
	}
	if _, err := w.Write(head[:n]); err != nil {
		return nil
	}
	if _, err := io.Copy(w, blob); err != nil {
		a.Log.DebugContext(r.Context(), "raw file stream ended early", "path", e.Path, "err", err)
	}
	return nil
}

// getBlob is Gitea's GitBlobResponse: a blob by id, base64.
func (a *Handler) getBlob(w http.ResponseWriter, r *http.Request) error {
	c, err := a.codeOf(r)
	if err != nil {
		return err
	}
	sha := r.PathValue("sha")
	if !isHex(sha) {
		return usererr.InvalidField("sha", "invalid_ref", "a blob is named by its id (hex)")
	}
	typ, err := gitstore.ObjectType(r.Context(), c.Dir, sha)
	if err != nil || typ != "blob" {
		return gitError(gitstore.ErrRefNotFound)
	}
	data, err := gitstore.ReadBlob(r.Context(), c.Dir, sha, api.MaxContentSize+1)
	if err != nil {
		return err
	}
	out := map[string]any{"sha": sha, "url": c.Api + "/git/blobs/" + sha, "size": len(data), "too_large": len(data) > api.MaxContentSize,
		"encoding": nil, "content": nil}
	if len(data) <= api.MaxContentSize {
		out["encoding"], out["content"] = "base64", base64.StdEncoding.EncodeToString(data)
	}
	api.WriteJSON(w, http.StatusOK, out)
	return nil
}
