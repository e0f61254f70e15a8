package gitserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/repoaccess"
)

// RunHook is `dforge hook pre-receive`, run by git inside receive-pack: it
// reads the ref updates git passes on stdin ("<old> <new> <ref>" lines),
// works out which are forced, and hands them, with where git quarantines
// the pushed objects, to the node through the endpoint and token in its
// environment. The node's messages go to stderr, which git shows the
// pusher as "remote: ...". A non-nil error rejects the push; its text is
// the reason.
func RunHook(ctx context.Context, name string, stdin io.Reader, stderr io.Writer) error {
	if name != gitstore.PreReceive {
		return fmt.Errorf("unknown hook %q (want %s)", name, gitstore.PreReceive)
	}
	url, token := os.Getenv("DFORGE_HOOK_URL"), os.Getenv("DFORGE_HOOK_TOKEN")
	if url == "" || token == "" {
		return errors.New("pushes go through the node's git server (DFORGE_HOOK_URL and DFORGE_HOOK_TOKEN are not set)")
	}
	updates, err := readUpdates(ctx, stdin)
	if err != nil {
		return err
	}
	resp, err := callNode(ctx, url+"/"+name, token, hookRequest{Updates: updates, Quarantine: os.Getenv("GIT_QUARANTINE_PATH"), Options: pushOptions()})
	if err != nil {
		return fmt.Errorf("the node could not take this push: %w", err)
	}
	if !resp.OK {
		return errors.New(resp.Message)
	}
	if resp.Message != "" {
		fmt.Fprintln(stderr, resp.Message)
	}
	return nil
}

// pushOptions are the push's options, which receive-pack passes to the
// hook as GIT_PUSH_OPTION_COUNT and GIT_PUSH_OPTION_0...
func pushOptions() []string {
	n, err := strconv.Atoi(os.Getenv("GIT_PUSH_OPTION_COUNT"))
	if err != nil || n <= 0 {
		return nil
	}
	options := make([]string, 0, n)
	for i := range n {
		options = append(options, os.Getenv("GIT_PUSH_OPTION_"+strconv.Itoa(i)))
	}
	return options
}

// readUpdates parses the hook's stdin. The hook runs in the repository
// with git's environment, quarantined objects included, so merge-base
// sees the pushed commits before they are accepted.
func readUpdates(ctx context.Context, stdin io.Reader) ([]repoaccess.RefUpdate, error) {
	var updates []repoaccess.RefUpdate
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 3 {
			return nil, fmt.Errorf("unexpected hook input %q", sc.Text())
		}
		u := repoaccess.RefUpdate{Old: f[0], New: f[1], Ref: f[2]}
		u.Forced = forced(ctx, u)
		updates = append(updates, u)
	}
	return updates, sc.Err()
}

// forced reports whether u is a deletion or not a fast-forward. What git
// cannot show to be a fast-forward (a tag of a tree, say) counts as forced.
func forced(ctx context.Context, u repoaccess.RefUpdate) bool {
	switch {
	case u.Deleted():
		return true
	case u.Created():
		return false
	}
	cmd := exec.CommandContext(ctx, "git", "merge-base", "--is-ancestor", u.Old, u.New)
	cmd.Stderr = io.Discard
	return cmd.Run() != nil
}

// hookClient talks to the node on loopback: never through a proxy.
var hookClient = &http.Client{Transport: &http.Transport{Proxy: nil}}

func callNode(ctx context.Context, url, token string, hr hookRequest) (hookResponse, error) {
	body, err := json.Marshal(hr)
	if err != nil {
		return hookResponse{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return hookResponse{}, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := hookClient.Do(req)
	if err != nil {
		return hookResponse{}, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
		return hookResponse{}, fmt.Errorf("%s: %s", res.Status, strings.TrimSpace(string(msg)))
	}
	var out hookResponse
	if err := json.NewDecoder(io.LimitReader(res.Body, 1<<20)).Decode(&out); err != nil {
		return hookResponse{}, fmt.Errorf("read the node's answer: %w", err)
	}
	return out, nil
}
