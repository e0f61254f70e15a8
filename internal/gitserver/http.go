package gitserver

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"time"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/repoaccess"
)

// ServeHTTP answers one Smart HTTP request. Its identity, if any, is in the
// request context (see Authenticate).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	lfs, isLFS := parseLFSPath(r.URL.EscapedPath())
	if secret, ok := ticketOf(r.Header.Get("Authorization")); ok {
		// A git-lfs-authenticate ticket opens the LFS endpoint only.
		tk, valid := s.tickets.check(secret)
		if !isLFS || !valid {
			challenge(w)
			return
		}
		r = r.WithContext(withTicket(auth.WithIdentity(r.Context(), tk.identity()), tk))
	}
	if secret, ok := jobTokenOf(r.Header.Get("Authorization")); ok {
		if r, ok = s.checkJobToken(w, r, secret, isLFS); !ok {
			return
		}
	}
	if isLFS {
		s.serveLFS(w, r, lfs)
		return
	}
	req, ok := parsePath(r.URL.EscapedPath())
	if !ok {
		textError(w, http.StatusBadRequest, "This is not a repository path: owner and repository names may hold letters, digits, '-', '_' and '.'.")
		return
	}
	// 1. The service asked for, and the method it takes.
	service := req.action
	method := http.MethodPost
	if req.action == "info/refs" {
		service, method = r.URL.Query().Get("service"), http.MethodGet
		if service != uploadPack && service != receivePack {
			textError(w, http.StatusForbidden, "Only git's smart HTTP protocol is served here; use git 1.6.6 or later.")
			return
		}
	}
	if r.Method != method && !(method == http.MethodGet && r.Method == http.MethodHead) {
		w.Header().Set("Allow", method)
		textError(w, http.StatusMethodNotAllowed, "Use "+method+" for "+req.action+".")
		return
	}
	// 2. The repository and the right to use it.
	repo, user, ok := s.authorize(w, r, req, service == receivePack)
	if !ok {
		return
	}
	// 3. Hand the request to git.
	if req.action == "info/refs" {
		s.advertise(w, r, repo, service)
		return
	}
	s.rpc(w, r, repo, service, user)
}

// authorize resolves the repository and checks that the request may read
// it and, for a push, write to it (the core both transports share:
// access.go). It answers the request itself when not.
func (s *Server) authorize(w http.ResponseWriter, r *http.Request, req request, write bool) (repoaccess.Repo, *auth.User, bool) {
	ctx := r.Context()
	var user *auth.User
	id := auth.IdentityFrom(ctx)
	if id != nil {
		user = &id.User
	}
	if s.repos == nil { // no forge yet: nothing to find
		notFound(w)
		return repoaccess.Repo{}, nil, false
	}
	// A token must cover repositories to read one at all, as the API's
	// /repos routes ask; refused before the lookup, so the answer is the
	// same for a private, a public and a missing repository.
	if id != nil && !id.Grants("repository", auth.ScopeRead) {
		textError(w, http.StatusForbidden, "This access token may not read repositories; git and LFS need a token with read:repository (write:repository to push), or all.")
		return repoaccess.Repo{}, nil, false
	}
	if grant, ok := jobGrantFrom(ctx); ok {
		return s.authorizeJob(w, r, req, write, grant)
	}
	repo, level, err := s.find(ctx, user, req.owner, req.name)
	if tk, ok := ticketFrom(ctx); ok && err == nil && tk.Repo != repo.ID {
		err = errNoRepo // a ticket is good for its own repository only
	}
	switch {
	case errors.Is(err, errNoRepo):
		if user == nil {
			challenge(w) // the same for a private and a missing repository
		} else {
			notFound(w)
		}
		return repoaccess.Repo{}, nil, false
	case err != nil:
		textError(w, http.StatusInternalServerError, "The repository could not be looked up; please try again.")
		return repoaccess.Repo{}, nil, false
	}
	if write {
		switch {
		case user == nil:
			challenge(w)
			return repoaccess.Repo{}, nil, false
		case !id.Grants("repository", auth.ScopeWrite):
			textError(w, http.StatusForbidden, "This access token may not push; pushing needs a token with write:repository (or write, or all).")
			return repoaccess.Repo{}, nil, false
		case level < repoaccess.Write:
			textError(w, http.StatusForbidden, fmt.Sprintf("You may not push to %s/%s.", req.owner, req.name))
			return repoaccess.Repo{}, nil, false
		}
		if why := s.refusedWriter(ctx, user); why != "" {
			textError(w, http.StatusForbidden, why)
			return repoaccess.Repo{}, nil, false
		}
	}
	if !s.readyOrAnswer(w, r, repo) {
		return repoaccess.Repo{}, nil, false
	}
	return repo, user, true
}

// authorizeJob is authorize for a running job's token, which reads the
// repository of id grant and nothing else.
func (s *Server) authorizeJob(w http.ResponseWriter, r *http.Request, req request, write bool, grant string) (repoaccess.Repo, *auth.User, bool) {
	if write {
		textError(w, http.StatusForbidden, "A workflow job's token reads its own repository; it may not push.")
		return repoaccess.Repo{}, nil, false
	}
	repo, found, err := s.repos.Resolve(r.Context(), req.owner, req.name)
	switch {
	case err != nil:
		s.log.ErrorContext(r.Context(), "resolve repository", "owner", req.owner, "name", req.name, "err", err)
		textError(w, http.StatusInternalServerError, "The repository could not be looked up; please try again.")
		return repoaccess.Repo{}, nil, false
	case !found || repo.ID != grant:
		notFound(w) // the same for another repository and a missing one
		return repoaccess.Repo{}, nil, false
	}
	if !s.readyOrAnswer(w, r, repo) {
		return repoaccess.Repo{}, nil, false
	}
	return repo, nil, true
}

// readyOrAnswer says whether repo's git data is here, answering r itself
// (503 while it is on its way, else 404) when not.
func (s *Server) readyOrAnswer(w http.ResponseWriter, r *http.Request, repo repoaccess.Repo) bool {
	var pending *pendingError
	switch err := s.ready(r.Context(), repo); {
	case errors.As(err, &pending):
		w.Header().Set("Retry-After", "10")
		textError(w, http.StatusServiceUnavailable, pending.msg)
		return false
	case err != nil:
		notFound(w)
		return false
	}
	return true
}

// advertise answers info/refs: the ref advertisement, preceded for
// protocol v0/v1 by the "# service=" line smart clients expect.
func (s *Server) advertise(w http.ResponseWriter, r *http.Request, repo repoaccess.Repo, service string) {
	proto := gitProtocol(r)
	var prefix []byte
	if !strings.Contains(proto, "version=2") {
		prefix = append(pktLine("# service="+service+"\n"), "0000"...)
	}
	cmd := s.command(r.Context(), service, repo, proto, "--stateless-rpc", "--advertise-refs", repo.Path)
	s.stream(w, r, cmd, "application/x-"+service+"-advertisement", prefix, nil)
}

// rpc runs one upload-pack or receive-pack exchange.
func (s *Server) rpc(w http.ResponseWriter, r *http.Request, repo repoaccess.Repo, service string, user *auth.User) {
	if ct := r.Header.Get("Content-Type"); ct != "application/x-"+service+"-request" {
		textError(w, http.StatusUnsupportedMediaType, "The request body must be application/x-"+service+"-request.")
		return
	}
	body, err := requestBody(r, service)
	if err != nil {
		textError(w, http.StatusBadRequest, err.Error())
		return
	}

	ctx := r.Context()
	if service == receivePack {
		// A push runs to its end even if the client goes: killing
		// receive-pack while it updates refs could leave lock files.
		// A vanished client ends it anyway, through a truncated body.
		ctx = context.WithoutCancel(ctx)
	}
	cmd, done, err := s.gitCommand(ctx, service, repo, user, gitProtocol(r), "--stateless-rpc", repo.Path)
	if err != nil {
		s.log.ErrorContext(ctx, "start hook endpoint", "err", err)
		textError(w, http.StatusInternalServerError, "The push could not be prepared; please try again.")
		return
	}
	defer done()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		s.fail(w, r, cmd, err, "")
		return
	}
	if service == receivePack {
		growPipe(stdin)
	}
	in := &input{body: body, raw: r.Body, stdin: stdin, done: make(chan struct{})}
	s.stream(w, r, cmd, "application/x-"+service+"-result", nil, in)
}

// stream runs cmd and copies its output to the client as it comes, with a
// flush per write. Headers go out with git's first bytes, so until then the
// status is still open: a git that fails before saying anything gets a
// proper error status. in, if not nil, is fed to git's standard input.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, cmd *exec.Cmd, contentType string, prefix []byte, in *input) {
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		s.fail(w, r, cmd, err, "")
		return
	}
	var stderr limitedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		s.fail(w, r, cmd, err, "")
		return
	}
	rc := http.NewResponseController(w)
	if in != nil {
		// Git may answer before it has read the whole request (progress);
		// HTTP/1.1 handlers cannot read the body after writing unless asked to.
		rc.EnableFullDuplex()
		go in.pump()
	}
	out := &responseWriter{w: w, rc: rc, contentType: contentType, prefix: prefix}
	_, copyErr := io.CopyBuffer(out, stdout, make([]byte, 64*1024))
	if copyErr != nil {
		io.Copy(io.Discard, stdout) // the client is gone; let git finish or fail
	}
	err = cmd.Wait()
	stalled := in != nil && in.finish(rc)
	var exit *exec.ExitError
	switch {
	case stalled && out.started:
		// The unread rest of the body would be taken for the next request.
		panic(http.ErrAbortHandler)
	case stalled:
		w.Header().Set("Connection", "close")
		textError(w, http.StatusRequestTimeout, "The request body stopped coming before its end.")
	case out.started:
		if err != nil {
			s.log.WarnContext(r.Context(), "git ended with an error", "cmd", cmd.Args[len(cmd.Args)-3:], "err", err, "stderr", stderr.String())
		}
	case in != nil && errors.Is(in.err, errBodyTooLarge):
		textError(w, http.StatusRequestEntityTooLarge, in.err.Error())
	case in != nil && in.err != nil && err != nil:
		s.log.InfoContext(r.Context(), "request body unreadable", "err", in.err)
		textError(w, http.StatusBadRequest, "The request body could not be read: "+in.err.Error())
	case in != nil && errors.As(err, &exit) && exit.ExitCode() == 128:
		// Git dies with 128 on a request it cannot parse, and has said
		// nothing yet: the client's mistake, in git's own words.
		// Git names the repository by its path on this disk; the client
		// knows it by its URL, and the layout of the disk is not theirs.
		msg := strings.TrimSpace(strings.ReplaceAll(stderr.String(), cmd.Args[len(cmd.Args)-1], r.URL.Path))
		if msg == "" {
			msg = "git refused the request."
		}
		s.log.InfoContext(r.Context(), "git refused the request", "cmd", cmd.Args[len(cmd.Args)-3:], "stderr", msg)
		textError(w, http.StatusBadRequest, msg)
	case in != nil && err == nil && in.unread:
		textError(w, http.StatusBadRequest, "The request body goes on after the end of the git request.")
	case err != nil && r.Context().Err() != nil:
		s.log.InfoContext(r.Context(), "client left before git answered", "cmd", cmd.Args[len(cmd.Args)-3:])
	case err != nil:
		s.fail(w, r, cmd, err, stderr.String())
	default:
		out.start() // an empty answer is still an answer
	}
}

func (s *Server) fail(w http.ResponseWriter, r *http.Request, cmd *exec.Cmd, err error, stderr string) {
	s.log.ErrorContext(r.Context(), "git failed", "args", cmd.Args, "err", err, "stderr", stderr)
	textError(w, http.StatusInternalServerError, "git could not serve this request.")
}

// Bounds of a gzip request body once inflated, so a small body cannot make
// the server inflate without end. Git compresses only fetch requests held
// whole in memory; even a negotiation over a million refs is a few tens of
// MiB (git http-backend buffers 10 MiB of them by default). Git never
// compresses a push, whose pack is compressed already; the bound there only
// stops a small body from posing as a huge pack.
const (
	maxInflatedUploadPack  = 64 << 20
	maxInflatedReceivePack = 4 << 30
)

var errBodyTooLarge = errors.New("the request body is too large once decompressed")

// requestBody is the request body, gunzipped on the fly when git sent it
// compressed (it does for large negotiations).
func requestBody(r *http.Request, service string) (io.Reader, error) {
	switch enc := strings.ToLower(r.Header.Get("Content-Encoding")); enc {
	case "", "identity":
		return r.Body, nil
	case "gzip", "x-gzip":
		gz, err := gzip.NewReader(r.Body)
		if err != nil {
			return nil, fmt.Errorf("the request body is not valid gzip: %v", err)
		}
		limit := int64(maxInflatedUploadPack)
		if service == receivePack {
			limit = maxInflatedReceivePack
		}
		return &limitReader{r: gz, n: limit}, nil
	default:
		return nil, fmt.Errorf("content encoding %q is not supported", enc)
	}
}

// limitReader reads at most n bytes and fails with errBodyTooLarge if
// there are more.
type limitReader struct {
	r io.Reader
	n int64
}

func (l *limitReader) Read(p []byte) (int, error) {
	if int64(len(p)) > l.n+1 {
		p = p[:l.n+1]
	}
	n, err := l.r.Read(p)
	if int64(n) > l.n {
		n, err = int(l.n), errBodyTooLarge
	}
	l.n -= int64(n)
	return n, err
}

// input feeds the request body to git on a goroutine of its own, the only
// one that reads the body.
type input struct {
	body  io.Reader     // r.Body, or its gunzipped view
	raw   io.ReadCloser // r.Body
	stdin io.WriteCloser
	done  chan struct{}
	// Set before done closes:
	err    error // reading the body failed (errBodyTooLarge, a broken or truncated body)
	unread bool  // git stopped reading before the end of the body
}

func (in *input) pump() {
	defer close(in.done)
	buf := make([]byte, 256*1024)
	for {
		n, err := in.body.Read(buf)
		if n > 0 {
			if _, werr := in.stdin.Write(buf[:n]); werr != nil {
				in.unread = true // git has exited or closed its input
				break
			}
		}
		if err != nil {
			if err != io.EOF {
				in.err = err
			}
			break
		}
	}
	in.stdin.Close()
	// Closing the body reads what git left of it (net/http reads at most
	// 256 KiB, and past that closes the connection after the answer).
	// This must happen before the handler returns: net/http's own close
	// after a full-duplex handler can reach the body's end, start its
	// background read of the connection, and then panic with "invalid
	// concurrent Body.Read call" when it reads the next request.
	in.raw.Close()
}

// bodyGrace is how long a body may stall once git has ended before the
// handler stops waiting for it (as long as exec gives git's own I/O).
const bodyGrace = 5 * time.Second

// finish waits, once git has ended, for the pump to end, so that nothing
// reads the body after the handler returns. A client that stops sending
// for bodyGrace is cut off; finish then reports true, and the connection
// must not serve another request.
func (in *input) finish(rc *http.ResponseController) (stalled bool) {
	t := time.NewTimer(bodyGrace)
	defer t.Stop()
	select {
	case <-in.done:
		return false
	case <-t.C:
	}
	if err := rc.SetReadDeadline(time.Now()); err != nil {
		<-in.done // no deadline to cut it short: wait for the client
		return false
	}
	<-in.done
	return true
}

// protocolRule admits what git sends in Git-Protocol ("version=2", keys
// and values joined by ':'), nothing that could surprise an environment.
var protocolRule = regexp.MustCompile(`^[A-Za-z0-9=:._-]{1,256}$`)

func gitProtocol(r *http.Request) string {
	p := r.Header.Get("Git-Protocol")
	if !protocolRule.MatchString(p) {
		return ""
	}
	return p
}

func pktLine(s string) []byte {
	return fmt.Appendf(nil, "%04x%s", len(s)+4, s)
}

// responseWriter writes the headers and prefix with the first output and
// flushes every write, so the client sees git's progress as it happens.
type responseWriter struct {
	w           http.ResponseWriter
	rc          *http.ResponseController
	contentType string
	prefix      []byte
	started     bool
}

func (o *responseWriter) start() error {
	o.started = true
	h := o.w.Header()
	h.Set("Content-Type", o.contentType)
	h.Set("Cache-Control", "no-cache, max-age=0, must-revalidate")
	h.Set("Pragma", "no-cache")
	h.Set("Expires", "Fri, 01 Jan 1980 00:00:00 GMT")
	o.w.WriteHeader(http.StatusOK)
	if len(o.prefix) > 0 {
		_, err := o.w.Write(o.prefix)
		return err
	}
	return nil
}

func (o *responseWriter) Write(p []byte) (int, error) {
	if !o.started {
		if err := o.start(); err != nil {
			return 0, err
		}
	}
	n, err := o.w.Write(p)
	if err == nil {
		err = o.rc.Flush()
	}
	return n, err
}

// limitedBuffer keeps the first 64 KiB of git's standard error, for logs.
type limitedBuffer struct{ bytes.Buffer }

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := 64*1024 - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func textError(w http.ResponseWriter, status int, msg string) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	io.WriteString(w, msg+"\n")
}

func notFound(w http.ResponseWriter) {
	textError(w, http.StatusNotFound, "Repository not found.")
}

// challenge asks for credentials: git then sends its access token.
func challenge(w http.ResponseWriter) {
	w.Header().Set("WWW-Authenticate", `Basic realm="dForge"`)
	textError(w, http.StatusUnauthorized, "Authentication required: sign in with your username and a personal access token as the password.")
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
