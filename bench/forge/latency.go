package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"os/exec"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dforge/dforge/bench/internal/corpus"
	"github.com/dforge/dforge/internal/forgenode"
)

// endpoint is one API read under load; the first candidate path that
// answers 200 is used.
type endpoint struct {
	name       string
	candidates []string
	base       string // the server, when it is not the node
}

type latencyResult struct {
	tool      string // "wrk" or the built-in generator
	endpoints []endpointResult
}

type endpointResult struct {
	name, path  string
	unavailable string
	total       string // X-Total-Count of the probe, for the issue list
	requests    int
	errors      int // non-2xx answers and transport errors
	elapsed     time.Duration
	p50, p99    time.Duration
	max         time.Duration
}

func (e endpointResult) rps() float64 {
	if e.elapsed <= 0 {
		return 0
	}
	return float64(e.requests) / e.elapsed.Seconds()
}

// benchLatency loads each endpoint of repo in turn with o.conns keep-alive
// connections for o.duration, after a short warm-up, anonymously (the
// repository is public), with wrk when it is installed. rawFile is the
// raw file's path, and yard, when there is one, serves its yardstick;
// issues is how many the repository has, for the deep page.
func benchLatency(ctx context.Context, o options, base string, repo *forgenode.Repo, yard *processPerRead, rawFile string, issues int, out io.Writer) latencyResult {
	res := latencyResult{tool: "built-in Go load generator (wrk is not installed): exact percentiles of every request's duration"}
	wrk, wrkErr := exec.LookPath("wrk")
	if wrkErr == nil {
		res.tool = "wrk (" + wrk + ")"
	}
	var eps []endpoint
	if repo != nil {
		p := "/api/v1/repos/" + repo.Path()
		eps = []endpoint{
			{"repository home", []string{p}, ""},
			{"file tree", []string{p + "/contents?ref=" + corpus.Branch, p + "/contents/?ref=" + corpus.Branch, p + "/git/trees/" + corpus.Branch}, ""},
			{"issue list", []string{p + "/issues?limit=50", p + "/issues?state=open&limit=50"}, ""},
			{fmt.Sprintf("issue list, page %d", deepPage(issues)), []string{fmt.Sprintf("%s/issues?limit=50&page=%d", p, deepPage(issues))}, ""},
			{"raw file", []string{p + "/raw/" + rawFile + "?ref=" + corpus.Branch}, ""},
			{"commit list", []string{p + "/commits?sha=" + corpus.Branch + "&limit=10"}, ""},
		}
		if yard != nil {
			eps = append(eps, endpoint{"raw file, a git process per read", []string{"/raw/" + rawFile}, yard.URL})
		}
	} else {
		eps = []endpoint{{"repository home", nil, ""}, {"file tree", nil, ""}, {"issue list", nil, ""}}
	}
	client := &http.Client{Timeout: 30 * time.Second}
	for _, ep := range eps {
		er := endpointResult{name: ep.name}
		server := base
		if ep.base != "" {
			server = ep.base
		}
		if repo == nil {
			er.unavailable = "no repository: POST /api/v1/user/repos is not available"
		} else {
			er.path, er.total, er.unavailable = probe(ctx, client, server, ep.candidates)
		}
		if er.unavailable != "" {
			fmt.Fprintf(out, "  %s: not available (%s)\n", ep.name, er.unavailable)
			res.endpoints = append(res.endpoints, er)
			continue
		}
		var err error
		if wrkErr == nil {
			err = runWrk(ctx, wrk, server+er.path, o, &er)
		} else {
			err = loadGo(ctx, server+er.path, o, &er)
		}
		if ctx.Err() != nil {
			return res
		}
		if err != nil {
			er.unavailable = err.Error()
			fmt.Fprintf(out, "  %s: failed (%s)\n", ep.name, err)
		} else {
			fmt.Fprintf(out, "  %s (GET %s): %.0f req/s, p50 %s, p99 %s\n", ep.name, er.path, er.rps(), ms(er.p50), ms(er.p99))
		}
		res.endpoints = append(res.endpoints, er)
	}
	return res
}

// deepPage is the deep page of the issue list: page 150 of 50 issues, or
// the last page of a smaller list.
func deepPage(issues int) int { return max(1, min(150, issues/50)) }

// probe GETs each candidate path and returns the first that answers 200,
// with its X-Total-Count; or why none did.
func probe(ctx context.Context, c *http.Client, base string, paths []string) (path, total, unavailable string) {
	var first string
	for _, p := range paths {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+p, nil)
		if err != nil {
			return "", "", err.Error()
		}
		req.Header.Set("Accept", "application/json")
		res, err := c.Do(req)
		if err != nil {
			return "", "", err.Error()
		}
		body, _ := io.ReadAll(io.LimitReader(res.Body, 300))
		res.Body.Close()
		if res.StatusCode == http.StatusOK {
			return p, res.Header.Get("X-Total-Count"), ""
		}
		if first == "" {
			first = fmt.Sprintf("GET %s: HTTP %d %s", p, res.StatusCode, strings.TrimSpace(string(body)))
		}
	}
	return "", "", first
}

// loadGo is the built-in load generator: o.conns goroutines, each with its
// own keep-alive connection, sending GETs back to back; every request's
// duration is kept, so the percentiles are exact.
func loadGo(ctx context.Context, url string, o options, er *endpointResult) error {
	transport := &http.Transport{MaxIdleConnsPerHost: o.conns, MaxConnsPerHost: o.conns, DisableCompression: true}
	defer transport.CloseIdleConnections()
	client := &http.Client{Transport: transport, Timeout: 30 * time.Second}
	get := func() (time.Duration, bool) {
		t0 := time.Now()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		res, err := client.Do(req)
		if err != nil {
			return time.Since(t0), false
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return time.Since(t0), res.StatusCode == http.StatusOK
	}
	// phase loads the URL for d and returns the durations of the 200s.
	phase := func(d time.Duration) (durs []time.Duration, errs int, elapsed time.Duration) {
		var (
			mu sync.Mutex
			wg sync.WaitGroup
		)
		start := time.Now()
		deadline := start.Add(d)
		for range o.conns {
			wg.Go(func() {
				var mine []time.Duration
				failed := 0
				for time.Now().Before(deadline) && ctx.Err() == nil {
					if d, ok := get(); ok {
						mine = append(mine, d)
					} else {
						failed++
					}
				}
				mu.Lock()
				durs, errs = append(durs, mine...), errs+failed
				mu.Unlock()
			})
		}
		wg.Wait()
		return durs, errs, time.Since(start)
	}
	phase(warmup(o.duration))
	durs, errs, elapsed := phase(o.duration)
	if err := ctx.Err(); err != nil {
		return err
	}
	er.requests, er.errors, er.elapsed = len(durs), errs, elapsed
	if len(durs) == 0 {
		return fmt.Errorf("no request succeeded (%d failed)", errs)
	}
	er.p50, er.p99, er.max = percentile(durs, 50), percentile(durs, 99), slices.Max(durs)
	return nil
}

func warmup(d time.Duration) time.Duration { return min(max(d/5, 500*time.Millisecond), 3*time.Second) }

// runWrk runs wrk with as many threads as CPUs (at most o.conns) after a
// warm-up run, and reads its latency distribution.
func runWrk(ctx context.Context, wrk, url string, o options, er *endpointResult) error {
	threads := strconv.Itoa(max(1, min(runtime.NumCPU(), o.conns)))
	run := func(d time.Duration) (string, error) {
		secs := strconv.Itoa(max(1, int(math.Round(d.Seconds()))))
		cmd := exec.CommandContext(ctx, wrk, "-t"+threads, "-c"+strconv.Itoa(o.conns), "-d"+secs+"s", "--latency", "--timeout", "30s", url)
		b, err := cmd.CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("wrk: %w: %s", err, forgenode.FirstLine(string(b)))
		}
		return string(b), nil
	}
	if _, err := run(warmup(o.duration)); err != nil {
		return err
	}
	text, err := run(o.duration)
	if err != nil {
		return err
	}
	return parseWrk(text, o.duration, er)
}

var (
	wrkPercentile = regexp.MustCompile(`^\s*(50|99)(?:\.0+)?%\s+(\S+)`)
	wrkRequests   = regexp.MustCompile(`^\s*(\d+) requests in ([0-9.]+\w+)`)
	wrkNon2xx     = regexp.MustCompile(`Non-2xx or 3xx responses:\s*(\d+)`)
	wrkSocketErrs = regexp.MustCompile(`Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)`)
	wrkMax        = regexp.MustCompile(`^\s*Latency\s+\S+\s+\S+\s+(\S+)`)
)

// parseWrk reads wrk --latency's report.
func parseWrk(text string, d time.Duration, er *endpointResult) error {
	sc := bufio.NewScanner(strings.NewReader(text))
	er.elapsed = d
	for sc.Scan() {
		line := sc.Text()
		if m := wrkPercentile.FindStringSubmatch(line); m != nil {
			v, err := time.ParseDuration(m[2])
			if err != nil {
				return fmt.Errorf("wrk percentile %q: %w", line, err)
			}
			if m[1] == "50" {
				er.p50 = v
			} else {
				er.p99 = v
			}
		}
		if m := wrkMax.FindStringSubmatch(line); m != nil {
			er.max, _ = time.ParseDuration(m[1])
		}
		if m := wrkRequests.FindStringSubmatch(line); m != nil {
			er.requests, _ = strconv.Atoi(m[1])
			if el, err := time.ParseDuration(m[2]); err == nil {
				er.elapsed = el
			}
		}
		if m := wrkNon2xx.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[1])
			er.errors += n
			er.requests -= n // counted among wrk's requests
		}
		if m := wrkSocketErrs.FindStringSubmatch(line); m != nil {
			for _, s := range m[1:] {
				n, _ := strconv.Atoi(s)
				er.errors += n
			}
		}
	}
	if er.p50 == 0 || er.p99 == 0 {
		return fmt.Errorf("could not read wrk's latency distribution:\n%s", text)
	}
	return nil
}

// percentile is the nearest-rank percentile of ds.
func percentile(ds []time.Duration, p float64) time.Duration {
	s := slices.Clone(ds)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := int(math.Ceil(p/100*float64(len(s)))) - 1
	return s[min(max(i, 0), len(s)-1)]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }
