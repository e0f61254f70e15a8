package gitserver

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/crypto/ssh"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/repoaccess"
)

// Git over SSH: `ssh git@host git-upload-pack '/owner/repo.git'` (and
// git-receive-pack, git-upload-archive) runs the same git services as
// Smart HTTP, with the same access checks and the same push core
// (access.go, hooks.go). A person is known by their public key: keys are
// registered on chain (key.add), so every node takes the same ones, and
// a key deleted on chain is refused at the next connection. The user
// name of the SSH login is not looked at ("git" by convention).

// KeyLookup finds who owns an SSH public key, by its SHA256 fingerprint
// ("SHA256:..."). The forge's projection of key.add implements it.
type KeyLookup func(ctx context.Context, fingerprint string) (*auth.User, bool, error)

// DeployGrant is a repository a deploy key opens (Repo is its
// repoaccess.Repo.ID): to read, and to push unless ReadOnly. A push is a
// person's transaction on chain, so it is made in the name of AddedBy,
// the admin who added the key, with their rights at the time.
type DeployGrant struct {
	Repo     string
	ReadOnly bool
	AddedBy  auth.User
}

// DeployKeyLookup returns what a deploy key opens; none: it is no
// deploy key.
type DeployKeyLookup func(ctx context.Context, fingerprint string) ([]DeployGrant, error)

// SSHConfig is what the SSH server is built with.
type SSHConfig struct {
	Addr        string    // listen address, e.g. "127.0.0.1:2222"
	HostKeyFile string    // ed25519 host key, created on first start
	Keys        KeyLookup // who a key is
	// DeployKeys finds the repositories a deploy key (node-local, not a
	// person's) opens, by fingerprint; nil: none.
	DeployKeys DeployKeyLookup
	// MaxConns bounds concurrent connections; 0 means DefaultMaxSSHConns.
	MaxConns int
	// Metrics receives the server's metrics (dforge_ssh_*); nil: none.
	Metrics prometheus.Registerer
}

// Bounds of the SSH server.
const (
	DefaultMaxSSHConns = 64
	// maxSSHSessions bounds the sessions (commands) of one connection
	// at a time; git opens one.
	maxSSHSessions = 4
	// handshakeTimeout bounds the key exchange and authentication.
	handshakeTimeout = 30 * time.Second
	// shutdownGrace is how long Close lets running commands finish.
	shutdownGrace = 30 * time.Second
)

// sshCiphers are the ciphers offered, AES only. The client's order picks
// (OpenSSH's puts chacha20-poly1305 first), and x/crypto's ChaCha20 has
// no assembly on amd64: a clone over it cost the node a third more CPU
// than over HTTP (bench-ssh), over AES (hardware) about the same. AES-CTR
// stays for clients without GCM.
var sshCiphers = []string{
	"aes128-gcm@openssh.com", "aes256-gcm@openssh.com", "aes128-ctr", "aes192-ctr", "aes256-ctr",
}

// SSHServer serves git over SSH; Close stops it.
type SSHServer struct {
	git    *Server
	cfg    SSHConfig
	config *ssh.ServerConfig
	ln     net.Listener
	slots  chan struct{} // one per open connection
	m      *sshMetrics

	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed bool
	wg     sync.WaitGroup
	// ctx ends when Close gives up waiting: commands are then killed.
	ctx    context.Context
	cancel context.CancelFunc
	// httpURL is the node's public HTTP origin, for git-lfs-authenticate
	// (SetHTTPURL); "" until known.
	httpURL atomic.Value
}

// SetHTTPURL tells the server the node's public HTTP origin
// ("http://host:port"), where git-lfs-authenticate sends git-lfs; known
// once the HTTP server listens.
func (srv *SSHServer) SetHTTPURL(origin string) {
	srv.httpURL.Store(strings.TrimSuffix(origin, "/"))
}

// ListenSSH starts the SSH server of s on cfg.Addr.
func (s *Server) ListenSSH(cfg SSHConfig) (*SSHServer, error) {
	if cfg.Keys == nil {
		return nil, errors.New("ssh: no key lookup")
	}
	if cfg.MaxConns <= 0 {
		cfg.MaxConns = DefaultMaxSSHConns
	}
	signer, err := loadOrCreateHostKey(cfg.HostKeyFile)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv := &SSHServer{git: s, cfg: cfg, slots: make(chan struct{}, cfg.MaxConns), conns: map[net.Conn]struct{}{}, ctx: ctx, cancel: cancel}
	srv.config = &ssh.ServerConfig{PublicKeyCallback: srv.authenticate, ServerVersion: "SSH-2.0-dForge"}
	srv.config.Ciphers = sshCiphers
	srv.config.AddHostKey(signer)
	if srv.ln, err = net.Listen("tcp", cfg.Addr); err != nil {
		cancel()
		return nil, fmt.Errorf("listen for ssh on %s: %w", cfg.Addr, err)
	}
	// Registered once listening: a caller may retry on another port.
	srv.m = newSSHMetrics(cfg.Metrics)
	srv.wg.Add(1)
	go srv.serve()
	return srv, nil
}

// Addr is the address the server listens on.
func (srv *SSHServer) Addr() net.Addr { return srv.ln.Addr() }

// HostKey is the server's public host key.
func (srv *SSHServer) HostKey() (ssh.PublicKey, error) {
	signer, err := loadOrCreateHostKey(srv.cfg.HostKeyFile)
	if err != nil {
		return nil, err
	}
	return signer.PublicKey(), nil
}

// Close stops accepting, lets running commands finish for up to
// shutdownGrace, then cuts what is left and waits for every goroutine.
func (srv *SSHServer) Close() error {
	srv.mu.Lock()
	srv.closed = true
	srv.mu.Unlock()
	err := srv.ln.Close()
	done := make(chan struct{})
	go func() {
		srv.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(shutdownGrace):
		srv.cancel()
		srv.mu.Lock()
		for c := range srv.conns {
			c.Close()
		}
		srv.mu.Unlock()
		<-done
	}
	srv.cancel()
	return err
}

func (srv *SSHServer) serve() {
	defer srv.wg.Done()
	for {
		conn, err := srv.ln.Accept()
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return // closed
		}
		select {
		case srv.slots <- struct{}{}:
		default:
			conn.Close() // full: the client sees the connection refused
			srv.m.conns.WithLabelValues("refused").Inc()
			continue
		}
		if !srv.track(conn) {
			<-srv.slots
			conn.Close()
			return
		}
		srv.wg.Add(1)
		go func() {
			defer srv.wg.Done()
			defer func() { <-srv.slots }()
			defer srv.untrack(conn)
			srv.handle(conn)
		}()
	}
}

func (srv *SSHServer) track(c net.Conn) bool {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if srv.closed {
		return false
	}
	srv.conns[c] = struct{}{}
	return true
}

func (srv *SSHServer) untrack(c net.Conn) {
	srv.mu.Lock()
	delete(srv.conns, c)
	srv.mu.Unlock()
	c.Close()
}

// authenticate lets in a key registered on chain, as its owner.
func (srv *SSHServer) authenticate(meta ssh.ConnMetadata, key ssh.PublicKey) (*ssh.Permissions, error) {
	ctx, cancel := context.WithTimeout(srv.ctx, handshakeTimeout)
	defer cancel()
	fp := ssh.FingerprintSHA256(key)
	user, ok, err := srv.cfg.Keys(ctx, fp)
	if err != nil {
		srv.git.log.ErrorContext(ctx, "ssh: look up key", "fingerprint", fp, "err", err)
		return nil, errors.New("the key could not be looked up")
	}
	if !ok {
		return srv.authenticateDeployKey(ctx, fp)
	}
	return &ssh.Permissions{Extensions: map[string]string{"address": user.Address.Hex(), "username": user.Username}}, nil
}

// authenticateDeployKey lets in a repository's deploy key: the connection
// then reads those repositories, as no one in particular.
func (srv *SSHServer) authenticateDeployKey(ctx context.Context, fp string) (*ssh.Permissions, error) {
	if srv.cfg.DeployKeys == nil {
		return nil, errors.New("unknown public key")
	}
	grants, err := srv.cfg.DeployKeys(ctx, fp)
	if err != nil {
		srv.git.log.ErrorContext(ctx, "ssh: look up deploy key", "fingerprint", fp, "err", err)
		return nil, errors.New("the key could not be looked up")
	}
	if len(grants) == 0 {
		return nil, errors.New("unknown public key")
	}
	b, err := json.Marshal(grants)
	if err != nil {
		return nil, err
	}
	return &ssh.Permissions{Extensions: map[string]string{"deploy": string(b)}}, nil
}

// deployOf is what a deploy key's connection opens; nil for a person's key.
func deployOf(p *ssh.Permissions) []DeployGrant {
	var grants []DeployGrant
	if p.Extensions["deploy"] == "" || json.Unmarshal([]byte(p.Extensions["deploy"]), &grants) != nil {
		return nil
	}
	return grants
}

// handle runs one connection: the handshake, then its sessions.
func (srv *SSHServer) handle(conn net.Conn) {
	conn.SetDeadline(time.Now().Add(handshakeTimeout))
	sc, chans, reqs, err := ssh.NewServerConn(conn, srv.config)
	if err != nil {
		srv.m.conns.WithLabelValues("failed").Inc()
		return // a failed handshake or authentication: nothing to say
	}
	srv.m.conns.WithLabelValues("ok").Inc()
	defer sc.Close()
	conn.SetDeadline(time.Time{})
	go ssh.DiscardRequests(reqs)
	user, deploy := userOf(sc.Permissions), deployOf(sc.Permissions)
	if deploy != nil {
		user = nil
	}
	var sessions sync.WaitGroup
	defer sessions.Wait()
	open := make(chan struct{}, maxSSHSessions)
	for nc := range chans {
		if nc.ChannelType() != "session" {
			nc.Reject(ssh.UnknownChannelType, "only sessions are served")
			continue
		}
		select {
		case open <- struct{}{}:
		default:
			nc.Reject(ssh.ResourceShortage, "too many sessions on one connection")
			continue
		}
		ch, chReqs, err := nc.Accept()
		if err != nil {
			<-open
			continue
		}
		sessions.Add(1)
		go func() {
			defer sessions.Done()
			defer func() { <-open }()
			srv.session(user, deploy, ch, chReqs)
		}()
	}
}

func userOf(p *ssh.Permissions) *auth.User {
	u := &auth.User{Username: p.Extensions["username"]}
	u.Address = common.HexToAddress(p.Extensions["address"])
	return u
}

// session serves one session channel: environment requests (GIT_PROTOCOL),
// then one exec of a git service. A shell is refused with a greeting, as
// GitHub and Gitea do.
func (srv *SSHServer) session(user *auth.User, deploy []DeployGrant, ch ssh.Channel, reqs <-chan *ssh.Request) {
	defer ch.Close()
	srv.m.sessions.Inc()
	defer srv.m.sessions.Dec()
	var proto string
	for req := range reqs {
		switch req.Type {
		case "env":
			var kv struct{ Name, Value string }
			if ssh.Unmarshal(req.Payload, &kv) == nil && kv.Name == "GIT_PROTOCOL" && protocolRule.MatchString(kv.Value) {
				proto = kv.Value
			}
			req.Reply(true, nil)
		case "exec":
			var cmd struct{ Command string }
			if err := ssh.Unmarshal(req.Payload, &cmd); err != nil {
				req.Reply(false, nil)
				continue
			}
			req.Reply(true, nil)
			go ssh.DiscardRequests(reqs) // window changes, signals: nothing to do
			start := time.Now()
			status := srv.exec(user, deploy, ch, proto, cmd.Command)
			srv.m.command(commandService(cmd.Command), status, time.Since(start))
			srv.exit(ch, status)
			return
		case "shell":
			req.Reply(true, nil)
			who := "there"
			if user != nil {
				who = user.Username
			}
			fmt.Fprintf(ch.Stderr(), "Hi %s! You've successfully authenticated, but dForge does not provide shell access.\r\n", who)
			srv.exit(ch, 1)
			return
		case "pty-req":
			req.Reply(true, nil)
		default:
			req.Reply(false, nil)
		}
	}
}

// exit sends the command's exit status; the session then closes.
func (srv *SSHServer) exit(ch ssh.Channel, status uint32) {
	ch.CloseWrite()
	ch.SendRequest("exit-status", false, ssh.Marshal(struct{ Status uint32 }{status}))
}

// sshServices are the commands served: git's own names for them.
var sshServices = map[string]string{
	"git-upload-pack": uploadPack, "git-receive-pack": receivePack, "git-upload-archive": "git-upload-archive",
	"git upload-pack": uploadPack, "git receive-pack": receivePack, "git upload-archive": "git-upload-archive",
}

// parseCommand reads `git-upload-pack '/owner/repo.git'`: a service and
// one path, quoted as git quotes it, with or without the leading slash and
// the .git suffix.
func parseCommand(command string) (service, owner, name string, err error) {
	verb, arg, ok := cutService(command)
	if !ok {
		return "", "", "", fmt.Errorf("dForge serves git only (git-upload-pack, git-receive-pack, git-upload-archive, git-lfs-authenticate), not %q", firstWord(command))
	}
	owner, name, err = parseRepoPath(arg)
	return verb, owner, name, err
}

// parseRepoPath reads `'/owner/repo.git'`, quoted as git quotes it, with
// or without the leading slash (or ~) and the .git suffix.
func parseRepoPath(arg string) (owner, name string, err error) {
	arg = strings.TrimSpace(arg)
	if len(arg) >= 2 && (arg[0] == '\'' && arg[len(arg)-1] == '\'' || arg[0] == '"' && arg[len(arg)-1] == '"') {
		arg = arg[1 : len(arg)-1]
	}
	arg = strings.TrimPrefix(strings.TrimPrefix(arg, "~"), "/")
	parts := strings.Split(arg, "/")
	if len(parts) != 2 {
		return "", "", fmt.Errorf("%q is not a repository path; use owner/repo.git", arg)
	}
	owner, name = parts[0], strings.TrimSuffix(parts[1], ".git")
	for _, n := range []string{owner, name} {
		if !nameRule.MatchString(n) || n == "." || n == ".." {
			return "", "", fmt.Errorf("%q is not a repository path; use owner/repo.git", arg)
		}
	}
	return owner, name, nil
}

func cutService(command string) (service, arg string, ok bool) {
	command = strings.TrimSpace(command)
	for name, svc := range sshServices {
		if rest, found := strings.CutPrefix(command, name+" "); found {
			return svc, rest, true
		}
	}
	return "", "", false
}

func firstWord(s string) string {
	w, _, _ := strings.Cut(strings.TrimSpace(s), " ")
	return w
}

// exec runs one git service for user and returns its exit status. Refusals
// go to the client's standard error in git's "fatal:" style; a repository
// the user may not read is "not found", exactly as a missing one.
func (srv *SSHServer) exec(user *auth.User, deploy []DeployGrant, ch ssh.Channel, proto, command string) uint32 {
	ctx := srv.ctx
	stderr := ch.Stderr()
	if args, ok := strings.CutPrefix(strings.TrimSpace(command), lfsAuthenticate+" "); ok {
		return srv.lfsAuthenticate(ctx, user, ch, args)
	}
	service, owner, name, err := parseCommand(command)
	if err != nil {
		fmt.Fprintf(stderr, "fatal: %v\n", err)
		return 1
	}
	repo, level, err := srv.git.find(ctx, user, owner, name)
	if deploy != nil {
		var grant DeployGrant
		repo, grant, err = srv.git.findDeployed(ctx, deploy, owner, name)
		level = repoaccess.Read
		if err == nil && service == receivePack {
			if grant.ReadOnly {
				fmt.Fprintf(stderr, "fatal: this deploy key of %s/%s is read-only\n", owner, name)
				return 1
			}
			// The push is the key's admin's, with their rights now.
			user = &grant.AddedBy
			level = srv.git.repos.AccessLevel(ctx, user, repo)
		}
	}
	switch {
	case errors.Is(err, errNoRepo):
		fmt.Fprintf(stderr, "fatal: repository '%s/%s' not found\n", owner, name)
		return 1
	case err != nil:
		fmt.Fprintln(stderr, "fatal: the repository could not be looked up; please try again")
		return 1
	case service == receivePack && level < repoaccess.Write:
		fmt.Fprintf(stderr, "fatal: you may not push to %s/%s\n", owner, name)
		return 1
	}
	if service == receivePack {
		if why := srv.git.refusedWriter(ctx, user); why != "" {
			fmt.Fprintf(stderr, "fatal: %s\n", why)
			return 1
		}
	}
	var pending *pendingError
	if err := srv.git.ready(ctx, repo); errors.As(err, &pending) {
		fmt.Fprintf(stderr, "fatal: %s\n", pending.msg)
		return 1
	} else if err != nil {
		fmt.Fprintf(stderr, "fatal: repository '%s/%s' not found\n", owner, name)
		return 1
	}
	if service == receivePack {
		// A push runs to its end even if the client goes, as over HTTP.
		ctx = context.WithoutCancel(ctx)
	}
	return srv.run(ctx, user, repo, service, proto, ch)
}

// run streams the channel through git's service.
func (srv *SSHServer) run(ctx context.Context, user *auth.User, repo repoaccess.Repo, service, proto string, ch ssh.Channel) uint32 {
	cmd, done, err := srv.git.gitCommand(ctx, service, repo, user, proto, repo.Path)
	if err != nil {
		srv.git.log.ErrorContext(ctx, "ssh: prepare git", "err", err)
		fmt.Fprintln(ch.Stderr(), "fatal: the request could not be prepared; please try again")
		return 1
	}
	defer done()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		fmt.Fprintln(ch.Stderr(), "fatal: git could not be started")
		return 1
	}
	if service == receivePack {
		growPipe(stdin)
	}
	cmd.Stdout = ch
	var errs limitedBuffer
	cmd.Stderr = io.MultiWriter(ch.Stderr(), &errs)
	if err := cmd.Start(); err != nil {
		srv.git.log.ErrorContext(ctx, "ssh: start git", "err", err)
		fmt.Fprintln(ch.Stderr(), "fatal: git could not be started")
		return 1
	}
	// The client's input goes to git until either ends; the channel's
	// close (after git has ended) stops this copy.
	go func() {
		io.CopyBuffer(stdin, ch, make([]byte, 256*1024))
		stdin.Close()
	}()
	err = cmd.Wait()
	stdin.Close()
	var exit *exec.ExitError
	status := uint32(0)
	switch {
	case errors.As(err, &exit):
		status = uint32(exit.ExitCode())
		srv.git.log.InfoContext(ctx, "ssh: git ended with an error", "service", service, "repo", repo.ID, "status", status, "stderr", errs.String())
	case err != nil:
		status = 1
		srv.git.log.WarnContext(ctx, "ssh: git failed", "service", service, "repo", repo.ID, "err", err)
	}
	// The copy ends when the session closes the channel, after the exit
	// status is sent.
	return status
}

// loadOrCreateHostKey reads the ed25519 host key at path (OpenSSH's
// private key format), making it on first use.
func loadOrCreateHostKey(path string) (ssh.Signer, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return createHostKey(path)
	}
	if err != nil {
		return nil, fmt.Errorf("read the ssh host key: %w", err)
	}
	signer, err := ssh.ParsePrivateKey(b)
	if err != nil {
		return nil, fmt.Errorf("parse the ssh host key %s: %w", path, err)
	}
	return signer, nil
}

func createHostKey(path string) (ssh.Signer, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("make the ssh host key: %w", err)
	}
	block, err := ssh.MarshalPrivateKey(priv, "dforge host key")
	if err != nil {
		return nil, fmt.Errorf("encode the ssh host key: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("make the ssh host key's directory: %w", err)
	}
	// Written aside and renamed, so a crash never leaves half a key.
	tmp := path + ".new"
	if err := os.WriteFile(tmp, pem.EncodeToMemory(block), 0o600); err != nil {
		return nil, fmt.Errorf("write the ssh host key: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return nil, fmt.Errorf("write the ssh host key: %w", err)
	}
	return ssh.NewSignerFromKey(priv)
}
