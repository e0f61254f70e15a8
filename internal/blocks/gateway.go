package blocks

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/ipfs/go-cid"
)

// RawType is the media type of a raw block.
const RawType = "application/vnd.ipld.raw"

// queueWait bounds how long a request for a missing block waits for the
// queue of pushes to empty: a large push's objects take seconds to store.
const queueWait = time.Minute

// Gateway serves blocks at GET and HEAD /ipfs/{cid} as an IPFS trustless
// gateway (specs.ipfs.tech/http-gateways/trustless-gateway) limited to raw
// blocks: the client asks with ?format=raw or Accept: application/vnd.ipld.raw
// and verifies what it gets against the CID itself.
func (s *Store) Gateway(log *slog.Logger) http.Handler {
	if log == nil {
		log = slog.Default()
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.serveBlock(log, w, r)
	})
}

func (s *Store) serveBlock(log *slog.Logger, w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		plain(w, http.StatusMethodNotAllowed, "Only GET and HEAD are supported.")
		return
	}
	rest, ok := strings.CutPrefix(r.URL.Path, "/ipfs/")
	if !ok {
		plain(w, http.StatusNotFound, "Not found.")
		return
	}
	w.Header().Set("Vary", "Accept")
	id, sub, _ := strings.Cut(rest, "/")
	c, err := cid.Decode(id)
	if err != nil {
		plain(w, http.StatusBadRequest, fmt.Sprintf("%q is not a valid CID.", id))
		return
	}
	if sub != "" {
		plain(w, http.StatusBadRequest, "Paths inside a block are not supported: ask for the CID of the object itself.")
		return
	}
	if status, msg := negotiate(r); status != 0 {
		plain(w, status, msg)
		return
	}
	f, _, err := s.Open(c)
	if errors.Is(err, ErrNotFound) && s.Queued() > 0 {
		// The block may be one of a push still being stored.
		ctx, cancel := context.WithTimeout(r.Context(), queueWait)
		if s.Settle(ctx) == nil {
			f, _, err = s.Open(c)
		}
		cancel()
	}
	if errors.Is(err, ErrNotFound) {
		plain(w, http.StatusNotFound, "No block with this CID is stored on this node.")
		return
	}
	if err != nil {
		log.ErrorContext(r.Context(), "serve block", "cid", c.String(), "err", err)
		plain(w, http.StatusInternalServerError, "The block could not be read.")
		return
	}
	defer f.Close()
	name := c.String()
	h := w.Header()
	h.Set("Content-Type", RawType)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "public, max-age=29030400, immutable")
	h.Set("ETag", `"`+name+`.raw"`)
	h.Set("X-Ipfs-Path", "/ipfs/"+name)
	h.Set("X-Ipfs-Roots", name)
	h.Set("Content-Disposition", `attachment; filename="`+name+`.bin"`)
	h.Set("Access-Control-Allow-Origin", "*") // public, verifiable data
	// ServeContent answers If-None-Match (304), Range and HEAD.
	http.ServeContent(w, r, "", time.Time{}, f)
}

// negotiate returns 0 when the client asks for a raw block, else the
// status and message to answer with. ?format wins over Accept, as the
// spec says.
func negotiate(r *http.Request) (int, string) {
	const onlyRaw = "This gateway serves raw blocks only: ask with ?format=raw or Accept: " + RawType + "."
	if f := r.URL.Query().Get("format"); f != "" {
		if f == "raw" {
			return 0, ""
		}
		return http.StatusNotAcceptable, onlyRaw
	}
	for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err == nil && mt == RawType && params["q"] != "0" {
			return 0, ""
		}
	}
	return http.StatusNotAcceptable, onlyRaw
}

func plain(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	fmt.Fprintln(w, msg)
}
