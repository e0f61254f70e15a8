package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/dforge/dforge/internal/chain/names"
	ui "github.com/dforge/dforge/web"
)

// asset is one file of the built app, with its precompressed variants.
type asset struct {
	body     []byte
	gzip     []byte
	brotli   []byte
	etag     string
	mimeType string
}

// SPA serves the built app: files by path, the route table's pages as
// index.html, and anything else as index.html with status 404 so the app
// shows its own Not Found page.
type SPA struct {
	assets map[string]*asset
	routes []routePattern
}

// NewSPA indexes dist once, so serving a file is a map lookup.
func NewSPA(dist fs.FS, routes []ui.Route) (*SPA, error) {
	s := &SPA{assets: map[string]*asset{}}
	for _, r := range routes {
		s.routes = append(s.routes, parsePattern(r.Path))
	}
	err := fs.WalkDir(dist, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".gz") || strings.HasSuffix(p, ".br") {
			return err
		}
		return s.add(dist, p)
	})
	if err != nil {
		return nil, fmt.Errorf("index web app: %w", err)
	}
	return s, nil
}

func (s *SPA) add(dist fs.FS, p string) error {
	body, err := fs.ReadFile(dist, p)
	if err != nil {
		return fmt.Errorf("read %s: %w", p, err)
	}
	sum := sha256.Sum256(body)
	a := &asset{body: body, etag: `"` + hex.EncodeToString(sum[:8]) + `"`, mimeType: mimeType(p)}
	a.gzip, _ = fs.ReadFile(dist, p+".gz")
	a.brotli, _ = fs.ReadFile(dist, p+".br")
	s.assets["/"+p] = a
	return nil
}

func mimeType(p string) string {
	switch path.Ext(p) {
	case ".webmanifest":
		return "application/manifest+json"
	case ".mp3":
		return "audio/mpeg"
	}
	if t := mime.TypeByExtension(path.Ext(p)); t != "" {
		return t
	}
	return "application/octet-stream"
}

// Ready reports whether the app was built into the binary.
func (s *SPA) Ready() bool { return s.assets["/index.html"] != nil }

func (s *SPA) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	p := path.Clean("/" + r.URL.Path)
	if a, ok := s.assets[p]; ok {
		s.serveAsset(w, r, p, a, http.StatusOK)
		return
	}
	index := s.assets["/index.html"]
	if index == nil {
		http.Error(w, "the web app is not built into this binary: run `make build`", http.StatusServiceUnavailable)
		return
	}
	status := http.StatusNotFound
	if s.isPage(p) {
		status = http.StatusOK
	}
	s.serveAsset(w, r, "/index.html", index, status)
}

func (s *SPA) serveAsset(w http.ResponseWriter, r *http.Request, p string, a *asset, status int) {
	h := w.Header()
	h.Set("Cache-Control", cacheControl(p))
	h.Set("Content-Type", a.mimeType)
	h.Set("ETag", a.etag)
	body, encoding := a.body, ""
	if a.brotli != nil || a.gzip != nil {
		h.Add("Vary", "Accept-Encoding")
		body, encoding = a.negotiate(r.Header.Get("Accept-Encoding"))
	}
	if encoding != "" {
		h.Set("Content-Encoding", encoding)
	}
	if status != http.StatusOK {
		// Error pages are never ranged or revalidated.
		w.WriteHeader(status)
		if r.Method != http.MethodHead {
			w.Write(body)
		}
		return
	}
	// ServeContent handles Range (audio seeking) and If-None-Match.
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}

func (a *asset) negotiate(accept string) ([]byte, string) {
	if a.brotli != nil && acceptsEncoding(accept, "br") {
		return a.brotli, "br"
	}
	if a.gzip != nil && acceptsEncoding(accept, "gzip") {
		return a.gzip, "gzip"
	}
	return a.body, ""
}

func acceptsEncoding(header, enc string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), enc) {
			continue
		}
		q, hasQ := strings.CutPrefix(strings.TrimSpace(params), "q=")
		if !hasQ {
			return true
		}
		weight, err := strconv.ParseFloat(q, 64)
		return err == nil && weight > 0
	}
	return false
}

// cacheControl makes content-hashed assets immutable and everything that
// names a version by its URL alone (index.html, the service worker and its
// manifest) revalidate on every load, so updates reach users.
func cacheControl(p string) string {
	switch {
	case strings.HasPrefix(p, "/assets/"):
		return "public, max-age=31536000, immutable"
	case p == "/index.html" || p == "/sw.js" || strings.HasPrefix(p, "/workbox-") || strings.HasSuffix(p, ".webmanifest") || p == "/registerSW.js":
		return "no-cache"
	default:
		return "public, max-age=86400"
	}
}

// routePattern is a route table path split into segments; ":x" matches one
// segment and a trailing "*" matches the rest.
type routePattern []string

func parsePattern(p string) routePattern { return strings.Split(strings.Trim(p, "/"), "/") }

func (s *SPA) isPage(p string) bool {
	segs := strings.Split(strings.Trim(p, "/"), "/")
	for _, pat := range s.routes {
		if pat.match(segs) {
			return true
		}
	}
	return false
}

func (pat routePattern) match(segs []string) bool {
	for i, want := range pat {
		if want == "*" {
			return true
		}
		if i >= len(segs) || (segs[i] != want && !matchParam(want, segs[i])) {
			return false
		}
	}
	return len(segs) == len(pat)
}

// matchParam matches one ":name" segment. ":owner" takes only what could be
// a username, so /index.html/x or /help/x are not taken for repositories.
func matchParam(want, seg string) bool {
	switch {
	case !strings.HasPrefix(want, ":") || seg == "":
		return false
	case want == ":owner":
		return names.CanOwn(seg)
	}
	return true
}
