// Command release is dForge's release asset benchmark (`make bench-release`).
//
// It runs the real dforge binary (built from this tree into a temporary
// directory), signs in, creates a repository with a release and uploads one
// asset of -mb MB of random bytes through the API, then measures, over
// -rounds rounds each, the download rate of:
//
//  1. the asset at its browser_download_url (the node reading the UnixFS
//     file from its blockstore);
//  2. the same asset from the node's trustless gateway as a CAR
//     (/ipfs/{cid}?format=car), what an IPFS client fetches;
//  3. the same bytes as a static file served by Go's http.FileServer from
//     this process: the yardstick of a plain file over local HTTP.
//
// Medians are reported in MB/s (10^6 bytes), and the upload's rate once. It
// prints figures only and never fails on timing. Everything listens on
// 127.0.0.1; the temporary directory is removed at the end.
package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"github.com/dforge/dforge/internal/forgenode"
)

type options struct {
	mb      int
	rounds  int
	bin     string
	timeout time.Duration
}

func main() { os.Exit(mainCode()) }

func mainCode() int {
	var o options
	flag.IntVar(&o.mb, "mb", 50, "size of the asset in MB (10^6 bytes)")
	flag.IntVar(&o.rounds, "rounds", 5, "downloads per source (median reported)")
	flag.StringVar(&o.bin, "bin", "", "dforge binary to run (default: go build ./cmd/dforge into the temporary directory)")
	flag.DurationVar(&o.timeout, "timeout", 20*time.Minute, "abort the run after this long")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	if err := run(ctx, o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bench-release:", err)
		return 1
	}
	return 0
}

func run(ctx context.Context, o options, out io.Writer) (err error) {
	tmp, err := os.MkdirTemp("", "dforge-bench-release-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	note := func(format string, args ...any) { fmt.Fprintf(out, "note: "+format+"\n", args...) }
	bin, err := forgenode.Binary(ctx, o.bin, tmp, note, out)
	if err != nil {
		return err
	}
	n, err := forgenode.Start(ctx, bin, []string{"serve", "--data", filepath.Join(tmp, "node"), "--addr", "127.0.0.1:0",
		"--rpc-addr", "tcp://127.0.0.1:0", "--p2p-addr", "tcp://127.0.0.1:0"}, nil, filepath.Join(tmp, "node.log"))
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, n.Stop()) }()
	c, err := forgenode.SignIn(ctx, n.URL)
	if err != nil {
		return fmt.Errorf("sign in: %w", err)
	}

	// 1. A repository with a first commit, a release and its asset.
	var repo forgenode.Repo
	if err := c.Call(ctx, "POST", "/api/v1/user/repos", map[string]any{"name": "bench-release", "auto_init": true}, &repo, nil); err != nil {
		return err
	}
	if repo.Owner.Login == "" {
		repo.Owner.Login, repo.Name = c.Login, "bench-release"
	}
	var rel struct {
		ID int64 `json:"id"`
	}
	if err := c.Call(ctx, "POST", "/api/v1/repos/"+repo.Path()+"/releases", map[string]any{"tag_name": "v1", "name": "bench"}, &rel, nil); err != nil {
		return err
	}
	data := make([]byte, o.mb*1_000_000)
	rand.Read(data)
	var asset struct {
		CID string `json:"cid"`
		URL string `json:"browser_download_url"`
	}
	started := time.Now()
	if err := upload(ctx, c, fmt.Sprintf("/api/v1/repos/%s/releases/%d/assets?name=asset.bin", repo.Path(), rel.ID), data, &asset); err != nil {
		return err
	}
	up := time.Since(started)

	// 2. The yardstick: the same bytes as a static file.
	static := filepath.Join(tmp, "static")
	if err := os.MkdirAll(static, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(static, "asset.bin"), data, 0o644); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: http.FileServer(http.Dir(static))}
	go srv.Serve(ln)
	defer srv.Close()

	sources := []struct{ name, url string }{
		{"dForge browser_download_url", asset.URL},
		{"dForge gateway /ipfs/{cid} CAR", n.URL + "/ipfs/" + asset.CID + "?format=car"},
		{"static file (Go http.FileServer)", "http://" + ln.Addr().String() + "/asset.bin"},
	}
	fmt.Fprintf(out, "asset of %d MB, CID %s; upload through the API %.1f MB/s (%s)\n\n", o.mb, asset.CID, float64(len(data))/1e6/up.Seconds(), up.Round(time.Millisecond))
	fmt.Fprintf(out, "%-36s %12s %12s %14s\n", "source", "median MB/s", "best MB/s", "bytes")
	for _, s := range sources {
		var rates []float64
		var size int64
		for range o.rounds {
			n, d, err := fetch(ctx, s.url)
			if err != nil {
				return fmt.Errorf("%s: %w", s.name, err)
			}
			size = n
			rates = append(rates, float64(n)/1e6/d.Seconds())
		}
		slices.Sort(rates)
		fmt.Fprintf(out, "%-36s %12.1f %12.1f %14d\n", s.name, rates[len(rates)/2], rates[len(rates)-1], size)
	}
	return nil
}

func upload(ctx context.Context, c *forgenode.Client, path string, data []byte, out any) error {
	return c.Call(ctx, "POST", path, nil, out, nil, func(r *http.Request) {
		r.Body = io.NopCloser(bytes.NewReader(data))
		r.ContentLength = int64(len(data))
		r.Header.Set("Content-Type", "application/octet-stream")
	})
}

// fetch reads url whole and returns its size and how long it took.
func fetch(ctx context.Context, url string) (int64, time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, 0, err
	}
	start := time.Now()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, 0, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return 0, 0, fmt.Errorf("GET %s: HTTP %d", url, res.StatusCode)
	}
	n, err := io.Copy(io.Discard, res.Body)
	return n, time.Since(start), err
}
