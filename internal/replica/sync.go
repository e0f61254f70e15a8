package replica

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
)

// fetchTimeout bounds one git fetch from one peer; a peer that stalls is
// cut off sooner, by git's low-speed limit (lowSpeedTime).
const (
	fetchTimeout  = time.Hour
	lowSpeedTime  = "30"   // seconds below lowSpeedLimit
	lowSpeedLimit = "1000" // bytes per second
)

// sync brings pr's refs here to the chain's values.
func (r *Replicator) sync(ctx context.Context, pr index.PublicRepo) error {
	// 1. The refs to bring: the chain's, but for those this node relayed,
	// which its own push path moves.
	chainRefs, err := r.cfg.Chain.ChainRefs(ctx, pr.ID)
	if err != nil {
		return err
	}
	var want []index.ChainRef
	for _, c := range chainRefs {
		if !r.isSelf(c.Relayer) {
			want = append(want, c)
		}
	}
	dir, err := r.dir(pr.Repo)
	if err != nil {
		return fmt.Errorf("find the repository's directory: %w", err)
	}
	exists := hasRepo(dir)
	if !exists && r.isSelf(pr.Relayer) {
		// Created by this node, which makes its git data itself.
		r.forget(pr.ID)
		return nil
	}
	local := map[string]string{}
	if exists {
		refs, err := gitstore.Refs(ctx, dir)
		if err != nil {
			return err
		}
		for _, ref := range refs {
			local[ref.Name] = ref.ID
		}
	}
	var todo []index.ChainRef
	for _, c := range want {
		if valueOf(local, c.Ref) != c.SHA {
			todo = append(todo, c)
		}
	}
	if exists && len(todo) == 0 {
		if err := setHead(ctx, dir, pr.DefaultBranch); err != nil {
			return err
		}
		r.setStatus(pr.ID, Status{State: Ready, Done: len(want), Total: len(want)})
		return nil
	}
	// 2. Where the objects go: the repository, or for a first copy a
	// staged one, published once complete.
	target := dir
	var staged *gitstore.Incoming
	if !exists {
		staged, err = r.cfg.Git.Incoming(ctx, strings.ToLower(pr.Owner.Address), strconv.FormatUint(pr.ID, 10), pr.DefaultBranch)
		if err != nil {
			return fmt.Errorf("stage a new repository: %w", err)
		}
		defer staged.Discard()
		target = staged.Dir
	}
	status := Status{State: Replicating, Total: len(todo)}
	r.setStatus(pr.ID, status)
	// 3. The objects it lacks, from dForge peers or else over bitswap,
	// each source's verified apart: every new value is here with all it
	// reaches.
	var news, olds []string
	for _, c := range todo {
		if c.SHA != gitstore.ZeroID {
			news = append(news, c.SHA)
		}
		if old := valueOf(local, c.Ref); old != gitstore.ZeroID {
			olds = append(olds, old)
		}
	}
	have := localValues(local)
	if verify(ctx, target, nil, news, have) != nil {
		if err := r.fetch(ctx, target, pr, todo, news, have); err != nil {
			return err
		}
	}
	// 5. Each ref moves from the value it has here to the chain's; a ref
	// moved meanwhile (a push) fails its swap, and the next run sees it.
	for _, c := range todo {
		if err := updateRef(ctx, target, c.Ref, c.SHA, valueOf(local, c.Ref)); err != nil {
			return err
		}
		status.Done++
		r.setStatus(pr.ID, status)
	}
	if err := setHead(ctx, target, pr.DefaultBranch); err != nil {
		return err
	}
	if staged != nil {
		if dir, err = staged.Publish(); err != nil {
			return fmt.Errorf("publish the replicated repository: %w", err)
		}
	}
	// 6. The new objects become blocks this node serves over IPFS too.
	if r.cfg.Blocks != nil && len(news) > 0 {
		if err := r.cfg.Blocks.Enqueue(blocks.Job{Dir: dir, Include: news, Exclude: olds}); err != nil {
			r.log.WarnContext(ctx, "queue replicated objects as blocks", "repo", pr.ID, "err", err)
		}
	}
	r.setStatus(pr.ID, Status{State: Ready, Done: len(todo), Total: len(todo)})
	r.log.InfoContext(ctx, "replicated repository", "repo", pr.ID, "owner", pr.Owner.Username, "name", pr.Name, "refs", len(todo))
	return nil
}

func (r *Replicator) isSelf(a common.Address) bool {
	return r.cfg.Self != (common.Address{}) && a == r.cfg.Self
}

func (r *Replicator) dir(repo index.Repo) (string, error) {
	if r.cfg.Dirs != nil {
		return r.cfg.Dirs.Dir(repo)
	}
	return r.cfg.Git.Path(strings.ToLower(repo.Owner.Address), strconv.FormatUint(repo.ID, 10))
}

func hasRepo(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "HEAD"))
	return err == nil
}

// valueOf is ref's value in local, the zero id when absent.
func valueOf(local map[string]string, ref string) string {
	if v, ok := local[ref]; ok {
		return v
	}
	return gitstore.ZeroID
}

func localValues(local map[string]string) []string {
	out := make([]string, 0, len(local))
	for _, v := range local {
		out = append(out, v)
	}
	return out
}

// fetch brings news and all they reach into dir: from each dForge peer in
// turn over git's protocol, then over bitswap. What a source sends lands
// in a quarantine and joins dir's objects only once verified, so a peer
// that sends too little (a shallow copy, say) leaves nothing behind.
func (r *Replicator) fetch(ctx context.Context, dir string, pr index.PublicRepo, todo []index.ChainRef, news, have []string) error {
	listed, err := r.cfg.Peers.Peers(ctx)
	if err != nil {
		r.log.WarnContext(ctx, "list dForge peers", "err", err)
	}
	var errs []error
	try := func(source string, get func(q *gitstore.Quarantine) error) bool {
		q, err := gitstore.NewQuarantine(dir, "incoming-replica-")
		if err == nil {
			defer q.Discard()
			err = get(q)
		}
		if err == nil {
			err = verify(ctx, dir, q, news, have)
		}
		if err == nil {
			err = q.Migrate()
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", source, err))
			return false
		}
		// Which source sent them, and why those before it did not: the
		// only trace of a fallback that worked.
		attrs := []any{"repo", pr.ID, "source", source}
		if len(errs) > 0 {
			attrs = append(attrs, "failed", errors.Join(errs...).Error())
		}
		r.log.InfoContext(ctx, "fetched the objects to replicate", attrs...)
		return true
	}
	for _, p := range orderPeers(listed, todo, r.cfg.Self) {
		if try(p.URL, func(q *gitstore.Quarantine) error { return r.gitFetch(ctx, q, p, pr, news) }) {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	if r.cfg.Bitswap != nil && try("bitswap", func(q *gitstore.Quarantine) error { return r.bitswapFetch(ctx, q, pr.ID, news) }) {
		return nil
	}
	if len(errs) == 0 {
		return fmt.Errorf("%w: no peer is known", errNoSource)
	}
	return fmt.Errorf("%w: %w", errNoSource, errors.Join(errs...))
}

// gitFetch fetches the commits ids from peer's copy of pr by their ids
// (protocol v2; the git store allows any id in a want), without refs: the
// refs move once verified. A peer without one of them fails the whole
// fetch, so then each is asked for alone.
func (r *Replicator) gitFetch(ctx context.Context, q *gitstore.Quarantine, p Peer, pr index.PublicRepo, ids []string) error {
	remote, err := repoURL(p.URL, pr.Owner.Address, pr.Name, r.cfg.Protocols)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	err = r.fetchIDs(ctx, q, remote, ids)
	if err == nil || len(ids) == 1 || ctx.Err() != nil {
		return err
	}
	var failed []error
	for _, id := range ids {
		if err := r.fetchIDs(ctx, q, remote, []string{id}); err != nil {
			failed = append(failed, err)
		}
	}
	return errors.Join(failed...)
}

func (r *Replicator) fetchIDs(ctx context.Context, q *gitstore.Quarantine, remote string, ids []string) error {
	args := []string{
		"-c", "protocol.version=2", "-c", "credential.helper=", "-c", "http.followRedirects=false",
		"-c", "http.lowSpeedLimit=" + lowSpeedLimit, "-c", "http.lowSpeedTime=" + lowSpeedTime,
		"fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--no-recurse-submodules", "--no-auto-gc", "--", remote,
	}
	env := append(q.Env(), "GIT_ALLOW_PROTOCOL="+r.cfg.Protocols, "GIT_TERMINAL_PROMPT=0")
	_, err := git(ctx, q.Repo, env, nil, append(args, ids...)...)
	return err
}

// verify checks that every id is in dir (or q, when not nil) with all it
// reaches, past what the refs here (have) reach already: the objects are
// complete and connected, whoever sent them. A shallow boundary would let
// history stop short, so a repository that has one fails.
func verify(ctx context.Context, dir string, q *gitstore.Quarantine, ids, have []string) error {
	if len(ids) == 0 {
		return nil
	}
	var in strings.Builder
	for _, id := range ids {
		in.WriteString(id + "\n")
	}
	for _, id := range have {
		in.WriteString("^" + id + "\n") // git before 2.42 takes no --not here
	}
	if _, err := os.Stat(filepath.Join(dir, "shallow")); err == nil {
		return errors.New("verify the fetched objects: the repository became shallow")
	}
	if _, err := git(ctx, dir, q.Env(), strings.NewReader(in.String()), "rev-list", "--objects", "--missing=error", "--quiet", "--stdin"); err != nil {
		return fmt.Errorf("verify the fetched objects: %w", err)
	}
	return nil
}

// updateRef moves ref from old to value (the zero id deletes it), only if
// it still has old.
func updateRef(ctx context.Context, dir, ref, value, old string) error {
	args := []string{"update-ref", "-m", "replica", ref, value, old}
	if value == gitstore.ZeroID {
		args = []string{"update-ref", "-m", "replica", "-d", ref, old}
	}
	if _, err := git(ctx, dir, nil, nil, args...); err != nil {
		return fmt.Errorf("move %s to the chain's %s: %w", ref, value, err)
	}
	return nil
}

// setHead points HEAD at branch unless it does already.
func setHead(ctx context.Context, dir, branch string) error {
	if branch == "" {
		return nil
	}
	head, err := os.ReadFile(filepath.Join(dir, "HEAD"))
	if err == nil && strings.TrimSpace(string(head)) == "ref: refs/heads/"+branch {
		return nil
	}
	if _, err := git(ctx, dir, nil, nil, "symbolic-ref", "HEAD", "refs/heads/"+branch); err != nil {
		return fmt.Errorf("point HEAD at %s: %w", branch, err)
	}
	return nil
}

// git runs git in dir with env added and returns its trimmed output; a
// failure carries git's standard error.
func git(ctx context.Context, dir string, env []string, stdin io.Reader, args ...string) (string, error) {
	cmd := gitstore.Command(ctx, dir, args...)
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin = stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		name := args[0]
		for i := 0; name == "-c" && i+2 < len(args); i += 2 {
			name = args[i+2]
		}
		return "", fmt.Errorf("git %s: %w: %s", name, err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(stdout.String()), nil
}
