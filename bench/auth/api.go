package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dforge/dforge/internal/forgenode"
)

// benchAPI is figure 4: issue creation through the REST API, as a client
// sees it, by this checkout's binary and by the yardstick's (the code
// before the own-keys rules), in alternating rounds on fresh nodes.
func benchAPI(ctx context.Context, bin, oldBin string, issues, workers, rounds int) error {
	fmt.Printf("4. issue creation through the API: %d issues, %d clients at a time, %d rounds each, alternating\n", issues, workers, rounds)
	if oldBin == "" {
		fmt.Println("   skipped: no -old-bin (make bench-auth builds the yardstick)")
		return nil
	}
	var now, old []float64
	for range rounds {
		for _, b := range []string{oldBin, bin} {
			rate, err := issueRate(ctx, b, issues, workers)
			if err != nil {
				return fmt.Errorf("%s: %w", filepath.Base(b), err)
			}
			if b == bin {
				now = append(now, rate)
			} else {
				old = append(old, rate)
			}
		}
	}
	fmt.Printf("   before own-keys (%s): median %.0f issues/s %v\n", filepath.Base(oldBin), median(old), rounded(old))
	fmt.Printf("   own-keys (this checkout):     median %.0f issues/s %v\n", median(now), rounded(now))
	fmt.Printf("   ratio own-keys / before:      %.2f (target >= 0.9)\n", median(now)/median(old))
	return nil
}

// issueRate starts bin on a fresh data dir, signs in (with the second
// signature where the node asks for it), and opens issues in one
// repository from workers clients; it returns issues per second.
func issueRate(ctx context.Context, bin string, issues, workers int) (float64, error) {
	dir, err := os.MkdirTemp("", "bench-auth-api-*")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	n, err := forgenode.Start(ctx, bin, []string{"serve", "--data", filepath.Join(dir, "node"), "--addr", "127.0.0.1:0",
		"--rpc-addr", "tcp://127.0.0.1:0", "--p2p-addr", "tcp://127.0.0.1:0", "--ssh-addr", ""}, nil, filepath.Join(dir, "node.log"))
	if err != nil {
		return 0, err
	}
	defer n.Stop()
	c, err := forgenode.SignIn(ctx, n.URL)
	if err != nil {
		return 0, fmt.Errorf("sign in: %w", err)
	}
	repo, err := c.CreateRepo(ctx, "issues")
	if err != nil {
		return 0, err
	}
	path := "/api/v1/repos/" + repo.Path() + "/issues"
	var next atomic.Int64
	var failed error
	var once sync.Once
	var wg sync.WaitGroup
	start := time.Now()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1); i <= int64(issues); i = next.Add(1) {
				body := map[string]any{"title": fmt.Sprint("Benchmark issue ", i), "body": "Opened by bench-auth."}
				if err := c.Call(ctx, "POST", path, body, nil, nil); err != nil {
					once.Do(func() { failed = err })
					return
				}
			}
		}()
	}
	wg.Wait()
	if failed != nil {
		return 0, failed
	}
	return float64(issues) / time.Since(start).Seconds(), nil
}
