package gitserver

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/repoaccess"
	"github.com/dforge/dforge/internal/usererr"
)

// Git LFS over the basic transfer (git-lfs docs/api/batch.md,
// basic-transfers.md): POST {repo}.git/info/lfs/objects/batch answers, per
// object, where to upload or download it; PUT and GET
// {repo}.git/info/lfs/objects/{oid} move the bytes; POST
// {repo}.git/info/lfs/verify confirms an upload. Requests authenticate as
// git's do (a token as the Basic password): reading the repository lets
// one download, writing to it upload. The objects live in the blockstore
// (LFSStore), named on chain by oid, so other nodes fetch and serve them.

// LFSStore keeps a repository's LFS objects; the Repos a Server is given
// implements it to serve LFS (gitrepos.Repos).
type LFSStore interface {
	// LFSSizes are the sizes of those of oids recorded for r.
	LFSSizes(ctx context.Context, r repoaccess.Repo, oids []string) (map[string]int64, error)
	// PutLFS stores body as object oid of size bytes for r and records it,
	// refusing bytes that are not that object. Its refusals are
	// *usererr.Error (NotFound, TooLarge, Unprocessable, Forbidden...).
	PutLFS(ctx context.Context, u *auth.User, r repoaccess.Repo, oid string, size int64, body io.Reader) error
	// OpenLFS opens object oid of r.
	OpenLFS(ctx context.Context, r repoaccess.Repo, oid string) (io.ReadSeekCloser, error)
}

const lfsType = "application/vnd.git-lfs+json"

// MaxLFSBatch bounds the objects of one batch request.
const MaxLFSBatch = 1000

// lfsRequest is a parsed LFS path.
type lfsRequest struct {
	owner, name string
	action      string // "batch", "verify", "object", "locks", "locks/verify" or "unlock"
	oid         string
	lockID      string // of "unlock"
}

func parseLFSPath(escapedPath string) (lfsRequest, bool) {
	parts := strings.Split(escapedPath, "/")
	if len(parts) < 6 || parts[0] != "" || parts[3] != "info" || parts[4] != "lfs" {
		return lfsRequest{}, false
	}
	req := lfsRequest{owner: parts[1], name: strings.TrimSuffix(parts[2], ".git")}
	switch {
	case len(parts) == 6 && parts[5] == "verify":
		req.action = "verify"
	case len(parts) == 7 && parts[5] == "objects" && parts[6] == "batch":
		req.action = "batch"
	case len(parts) == 7 && parts[5] == "objects" && isOID(parts[6]):
		req.action, req.oid = "object", parts[6]
	case len(parts) == 6 && parts[5] == "locks":
		req.action = "locks"
	case len(parts) == 7 && parts[5] == "locks" && parts[6] == "verify":
		req.action = "locks/verify"
	case len(parts) == 8 && parts[5] == "locks" && parts[7] == "unlock" && isDigits(parts[6]):
		req.action, req.lockID = "unlock", parts[6]
	default:
		return lfsRequest{}, false
	}
	for _, n := range []string{req.owner, req.name} {
		if !nameRule.MatchString(n) || n == "." || n == ".." {
			return lfsRequest{}, false
		}
	}
	return req, true
}

func isDigits(s string) bool {
	return len(s) > 0 && len(s) <= 19 && strings.Trim(s, "0123456789") == ""
}

func isOID(s string) bool {
	return len(s) == 64 && strings.Trim(s, "0123456789abcdef") == ""
}

// serveLFS answers an LFS request.
func (s *Server) serveLFS(w http.ResponseWriter, r *http.Request, req lfsRequest) {
	if strings.HasPrefix(req.action, "lock") || req.action == "unlock" {
		s.serveLocks(w, r, req)
		return
	}
	store, ok := s.repos.(LFSStore)
	if !ok {
		lfsError(w, http.StatusNotImplemented, "This node keeps no Git LFS objects.")
		return
	}
	write := req.action == "verify" || r.Method == http.MethodPut
	if req.action == "batch" {
		var in lfsBatch
		if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&in); err != nil {
			lfsError(w, http.StatusUnprocessableEntity, "The batch request is not JSON: "+err.Error())
			return
		}
		if in.Operation != "upload" && in.Operation != "download" {
			lfsError(w, http.StatusUnprocessableEntity, "operation must be upload or download.")
			return
		}
		write = in.Operation == "upload"
		repo, _, ok := s.authorize(w, r, request{owner: req.owner, name: req.name}, write)
		if !ok {
			return
		}
		s.lfsBatch(w, r, store, repo, req, in)
		return
	}
	repo, user, ok := s.authorize(w, r, request{owner: req.owner, name: req.name}, write)
	if !ok {
		return
	}
	switch {
	case req.action == "verify" && r.Method == http.MethodPost:
		s.lfsVerify(w, r, store, repo)
	case req.action == "object" && r.Method == http.MethodPut:
		s.lfsUpload(w, r, store, repo, user, req.oid)
	case req.action == "object" && (r.Method == http.MethodGet || r.Method == http.MethodHead):
		s.lfsDownload(w, r, store, repo, req.oid)
	default:
		lfsError(w, http.StatusMethodNotAllowed, "Method not allowed here.")
	}
}

type lfsObject struct {
	OID  string `json:"oid"`
	Size int64  `json:"size"`
}

type lfsBatch struct {
	Operation string      `json:"operation"`
	Transfers []string    `json:"transfers"`
	Objects   []lfsObject `json:"objects"`
	HashAlgo  string      `json:"hash_algo"`
}

type lfsAction struct {
	Href      string            `json:"href"`
	Header    map[string]string `json:"header,omitempty"`
	ExpiresIn int               `json:"expires_in"`
}

type lfsObjectError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type lfsAnswer struct {
	OID           string               `json:"oid"`
	Size          int64                `json:"size"`
	Authenticated bool                 `json:"authenticated,omitempty"`
	Actions       map[string]lfsAction `json:"actions,omitempty"`
	Error         *lfsObjectError      `json:"error,omitempty"`
}

func (s *Server) lfsBatch(w http.ResponseWriter, r *http.Request, store LFSStore, repo repoaccess.Repo, req lfsRequest, in lfsBatch) {
	if in.HashAlgo != "" && in.HashAlgo != "sha256" {
		lfsError(w, http.StatusConflict, "Only sha256 objects are kept here.")
		return
	}
	if len(in.Transfers) > 0 && !contains(in.Transfers, "basic") {
		lfsError(w, http.StatusUnprocessableEntity, "Only the basic transfer is served here.")
		return
	}
	if len(in.Objects) > MaxLFSBatch {
		lfsError(w, http.StatusUnprocessableEntity, "At most "+strconv.Itoa(MaxLFSBatch)+" objects per batch.")
		return
	}
	var oids []string
	for _, o := range in.Objects {
		if isOID(o.OID) {
			oids = append(oids, o.OID)
		}
	}
	have, err := store.LFSSizes(r.Context(), repo, oids)
	if err != nil {
		s.log.ErrorContext(r.Context(), "read LFS objects", "repo", repo.ID, "err", err)
		lfsError(w, http.StatusInternalServerError, "The objects could not be looked up; please try again.")
		return
	}
	base := lfsBase(r, req)
	expires := 3600
	if tk, ok := ticketFrom(r.Context()); ok { // the actions last as long as the ticket
		expires = max(1, int(tk.Expires-s.tickets.now().Unix()))
	}
	header := map[string]string{}
	if a := r.Header.Get("Authorization"); a != "" {
		header["Authorization"] = a
	}
	out := []lfsAnswer{}
	for _, o := range in.Objects {
		ans := lfsAnswer{OID: o.OID, Size: o.Size}
		size, recorded := have[o.OID]
		href := base + "/objects/" + o.OID
		switch {
		case !isOID(o.OID) || o.Size < 0:
			ans.Error = &lfsObjectError{Code: http.StatusUnprocessableEntity, Message: "oid must be 64 hex digits and size a byte count"}
		case in.Operation == "download" && !recorded:
			ans.Error = &lfsObjectError{Code: http.StatusNotFound, Message: "Object does not exist"}
		case in.Operation == "download":
			ans.Size = size
			ans.Actions = map[string]lfsAction{"download": {Href: href, Header: header, ExpiresIn: expires}}
		case recorded: // already here: nothing to upload
		default:
			ans.Actions = map[string]lfsAction{
				"upload": {Href: href, Header: header, ExpiresIn: expires},
				"verify": {Href: base + "/verify", Header: header, ExpiresIn: expires},
			}
		}
		ans.Authenticated = len(header) > 0
		out = append(out, ans)
	}
	writeLFS(w, http.StatusOK, map[string]any{"transfer": "basic", "objects": out, "hash_algo": "sha256"})
}

func (s *Server) lfsUpload(w http.ResponseWriter, r *http.Request, store LFSStore, repo repoaccess.Repo, user *auth.User, oid string) {
	if r.ContentLength < 0 {
		lfsError(w, http.StatusLengthRequired, "An upload needs a Content-Length.")
		return
	}
	if err := store.PutLFS(r.Context(), user, repo, oid, r.ContentLength, r.Body); err != nil {
		s.lfsFailed(w, r, repo, err)
		return
	}
	w.WriteHeader(http.StatusOK)
}

func (s *Server) lfsVerify(w http.ResponseWriter, r *http.Request, store LFSStore, repo repoaccess.Repo) {
	var o lfsObject
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&o); err != nil || !isOID(o.OID) {
		lfsError(w, http.StatusUnprocessableEntity, "The verify request needs an oid and a size.")
		return
	}
	have, err := store.LFSSizes(r.Context(), repo, []string{o.OID})
	if err != nil {
		s.lfsFailed(w, r, repo, err)
		return
	}
	if size, ok := have[o.OID]; !ok || size != o.Size {
		lfsError(w, http.StatusNotFound, "Object "+o.OID+" of that size is not here.")
		return
	}
	writeLFS(w, http.StatusOK, map[string]string{})
}

func (s *Server) lfsDownload(w http.ResponseWriter, r *http.Request, store LFSStore, repo repoaccess.Repo, oid string) {
	f, err := store.OpenLFS(r.Context(), repo, oid)
	if err != nil {
		s.lfsFailed(w, r, repo, err)
		return
	}
	defer f.Close()
	w.Header().Set("Content-Type", "application/octet-stream")
	http.ServeContent(w, r, "", time.Time{}, f)
}

func (s *Server) lfsFailed(w http.ResponseWriter, r *http.Request, repo repoaccess.Repo, err error) {
	if ue, ok := usererr.As(err); ok {
		lfsError(w, lfsStatus[ue.Kind], ue.Message)
		return
	}
	s.log.ErrorContext(r.Context(), "git LFS", "repo", repo.ID, "err", err)
	lfsError(w, http.StatusInternalServerError, "The object could not be stored or read; please try again.")
}

// lfsStatus is the status of a refusal's kind.
var lfsStatus = map[usererr.Kind]int{
	usererr.Invalid: http.StatusBadRequest, usererr.NotFound: http.StatusNotFound, usererr.TooLarge: http.StatusRequestEntityTooLarge,
	usererr.Unauthenticated: http.StatusUnauthorized, usererr.Forbidden: http.StatusForbidden, usererr.Conflict: http.StatusConflict,
	usererr.Unprocessable: http.StatusUnprocessableEntity, usererr.Unavailable: http.StatusServiceUnavailable,
}

// lfsBase is the repository's LFS endpoint as the client reached it.
func lfsBase(r *http.Request, req lfsRequest) string {
	o := auth.OriginOf(r)
	return o.Scheme + "://" + o.Host + "/" + req.owner + "/" + req.name + ".git/info/lfs"
}

func writeLFS(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", lfsType)
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func lfsError(w http.ResponseWriter, status int, msg string) {
	writeLFS(w, status, map[string]string{"message": msg})
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
