package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/dforge/dforge/bench/internal/corpus"
)

type report struct {
	opts      options
	notes     *notes
	big, huge *corpus.Repo
	git       *gitResult
	issues    issuesResult
	latency   latencyResult
	mixed     mixedResult
	memory    memoryResult
}

const na = "not available"

func (r *report) print(out io.Writer) {
	o := r.opts
	if r.big != nil {
		fmt.Fprintf(out, "Large repository: %s\n  %.1f MB packed, %d objects, %d commits; %s\n",
			r.big.Info.Recipe, mb(r.big.Info.PackedBytes), r.big.Info.Objects, r.big.Info.Commits, r.big.Path)
	}
	if g := r.git; g != nil {
		fmt.Fprintf(out, "  http-backend served %s\n", g.source)
		if g.unavailable != "" {
			fmt.Fprintf(out, "  dForge: %s (%s)\n", na, g.unavailable)
		} else {
			fmt.Fprintf(out, "  the first push into dForge (bench-big) took %s, %.1f MB/s\n", g.firstPush.d.Round(time.Millisecond), g.firstPush.mbps())
		}
		r.printTransfers(out, "\nClone: git clone --bare --no-local over HTTP, the same bare repository", g.clones)
		r.printTransfers(out, "\nPush: git push of every branch into a new empty repository", g.pushes)
		if len(g.stored) > 0 {
			fmt.Fprintf(out, "  dForge stores a push's objects as IPFS blocks after acknowledging it (the blockstore emptied before each push):\n"+
				"  median %s after the push returned; push and storage together: %s\n", medianDuration(g.stored).Round(time.Millisecond), g.pushAndStore())
		}
	}

	fmt.Fprintf(out, "\nIssues: %d through POST /api/v1/repos/{o}/{r}/issues from %d concurrent clients (each answers after its block)\n", o.issues, o.issueWorkers)
	switch is := r.issues; {
	case is.unavailable != "":
		fmt.Fprintf(out, "  %s (%s)\n", na, is.unavailable)
	case o.issues == 0:
		fmt.Fprintln(out, "  none asked for (-issues 0)")
	case is.want == 0:
		fmt.Fprintln(out, "  not run")
	default:
		p50, p99 := "-", "-"
		if len(is.latencies) > 0 {
			p50, p99 = ms(percentile(is.latencies, 50)), ms(percentile(is.latencies, 99))
		}
		fmt.Fprintf(out, "  %d/%d created in %s: %.1f issues/s; request p50 %s, p99 %s; %d failed, %d 5xx retried\n",
			is.created, is.want, is.elapsed.Round(time.Millisecond), is.rate(), p50, p99, is.failed, is.retries)
		if bands := is.bands(); len(bands) > 0 {
			fmt.Fprintf(out, "  as the repository grows (issues/s by fifth of the run): %s\n", strings.Join(bands, ", "))
		}
	}

	fmt.Fprintf(out, "\nAPI latency: %d keep-alive connections for %s per endpoint, anonymous GETs, after a %s warm-up\n  load: %s\n",
		o.conns, o.duration, warmup(o.duration), r.latency.tool)
	if len(r.latency.endpoints) == 0 {
		fmt.Fprintln(out, "  not run")
	} else {
		tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "endpoint\tGET\trequests\treq/s\tp50\tp99\tmax\terrors\t")
		for _, e := range r.latency.endpoints {
			if e.unavailable != "" {
				fmt.Fprintf(tw, "%s\t%s\t\t\t\t\t\t\t\n", e.name, na)
				continue
			}
			path := e.path
			if e.total != "" {
				path += " (X-Total-Count " + e.total + ")"
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%.0f\t%s\t%s\t%s\t%d\t\n", e.name, path, e.requests, e.rps(), ms(e.p50), ms(e.p99), ms(e.max), e.errors)
		}
		tw.Flush()
	}

	r.printMixed(out)

	fmt.Fprintf(out, "\nPeak memory: /proc/<pid>/status of the node and of its descendants (git, hooks) every 20 ms\n")
	fmt.Fprintf(out, "  VmHWM is the kernel's peak of VmRSS, which counts mapped file pages too (git maps its packs); RssAnon is heap and stacks\n")
	if r.memory.push.what == "" {
		fmt.Fprintln(out, "  not run")
	} else {
		tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "operation\ttime\tMB/s\tnode VmHWM\tnode RssAnon\tlargest child\tits VmHWM\tits RssAnon\t")
		for _, p := range []memPhase{r.memory.push, r.memory.clone} {
			if p.what == "" {
				continue
			}
			if p.unavailable != "" {
				fmt.Fprintf(tw, "%s\t%s\t\t\t\t\t\t\t\n", p.what, na)
				continue
			}
			child := "-"
			if p.child.name != "" {
				child = p.child.name
			}
			fmt.Fprintf(tw, "%s\t%s\t%.1f\t%s\t%s\t%s\t%s\t%s\t\n", p.what, p.t.d.Round(time.Millisecond), p.t.mbps(),
				mib(p.node.hwm), mib(p.node.anon), child, mib(p.child.hwm), mib(p.child.anon))
		}
		tw.Flush()
	}

	r.printTargets(out)
	var lines []string
	if g := r.git; g != nil {
		lines = append(lines, g.failures...)
	}
	if r.issues.firstErr != "" {
		lines = append(lines, "issue creation, first failure: "+r.issues.firstErr)
	}
	for _, e := range r.latency.endpoints {
		if e.unavailable != "" {
			lines = append(lines, fmt.Sprintf("%s: %s", e.name, e.unavailable))
		}
	}
	lines = append(lines, r.notes.lines...)
	if len(lines) > 0 {
		fmt.Fprintln(out, "\nNotes")
		for _, l := range lines {
			fmt.Fprintln(out, "  -", l)
		}
	}
}

func (r *report) printTransfers(out io.Writer, title string, byServer map[string][]transfer) {
	fmt.Fprintf(out, "%s, median of %d round(s)\n", title, r.opts.rounds)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "server\trounds\tMB\tmedian time\tMB/s\tevery round, MB/s\t")
	for _, name := range []string{dforgeServer, backendServer} {
		ts := byServer[name]
		m, ok := median(ts)
		if !ok {
			fmt.Fprintf(tw, "%s\t%s\t\t\t\t\t\n", name, na)
			continue
		}
		each := make([]string, len(ts))
		for i, t := range ts {
			each[i] = fmt.Sprintf("%.1f", t.mbps())
		}
		fmt.Fprintf(tw, "%s\t%d/%d\t%.1f\t%s\t%.1f\t%s\t\n", name, len(ts), r.opts.rounds, mb(m.bytes), m.d.Round(time.Millisecond), m.mbps(), strings.Join(each, ", "))
	}
	tw.Flush()
}

func (r *report) printTargets(out io.Writer) {
	fmt.Fprintln(out, "\nAgainst the targets (figures only; nothing is asserted)")
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	clones, pushes := na, na
	if r.git != nil {
		clones, pushes = speedRatio(r.git.clones, 0), speedRatio(r.git.pushes, 0)
	}
	fmt.Fprintf(tw, "  clone MB/s, dForge / http-backend\t%s\t(target >= 0.95)\n", clones)
	fmt.Fprintf(tw, "  push MB/s, dForge / http-backend\t%s\t(target >= 0.95)\n", pushes)
	if r.git != nil && len(r.git.stored) > 0 {
		fmt.Fprintf(tw, "  the same, counting dForge's block storage after the push\t%s\t(for reference)\n", speedRatio(r.git.pushes, medianDuration(r.git.stored)))
	}
	for _, e := range r.latency.endpoints {
		p99 := na
		if e.unavailable == "" {
			p99 = ms(e.p99)
		}
		fmt.Fprintf(tw, "  p99 of the %s API, %d connections\t%s\t(target < 50 ms)\n", e.name, r.opts.conns, p99)
	}
	for _, m := range r.mixed.runs {
		fmt.Fprintf(tw, "  mixed load with %d%% writes: read p99 / write p99\t%s / %s\t(target < 50 ms / < 250 ms)\n", m.writePct, p99(m.reads), p99(m.writes))
	}
	if bands := r.issues.bands(); len(bands) > 1 {
		fmt.Fprintf(tw, "  issues/s, first fifth of the run against the last\t%s against %s\t(target: flat as issues grow)\n", bands[0], bands[len(bands)-1])
	}
	peak := na
	if c := r.memory.clone; c.what != "" && c.unavailable == "" {
		peak = mib(c.node.hwm)
	}
	fmt.Fprintf(tw, "  node peak RSS during the %.0f MB clone\t%s\t(target < 200 MB)\n", r.hugeMB(), peak)
	tw.Flush()
}

func (r *report) hugeMB() float64 {
	if r.huge == nil {
		return float64(r.opts.hugeMB)
	}
	return mb(r.huge.Info.PackedBytes)
}

func medianDuration(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// pushAndStore is dForge's median push time plus the median time to store
// its blocks, as MB/s.
func (g *gitResult) pushAndStore() string {
	t, ok := median(g.pushes[dforgeServer])
	if !ok {
		t = g.firstPush
	}
	t.d += medianDuration(g.stored)
	return fmt.Sprintf("%s, %.1f MB/s", t.d.Round(time.Millisecond), t.mbps())
}

// speedRatio is dForge's median MB/s over http-backend's, with extra
// added to dForge's median time.
func speedRatio(byServer map[string][]transfer, extra time.Duration) string {
	d, okD := median(byServer[dforgeServer])
	b, okB := median(byServer[backendServer])
	if !okD || !okB || b.mbps() == 0 {
		return na
	}
	d.d += extra
	return fmt.Sprintf("%.2f", d.mbps()/b.mbps())
}

// printMixed prints the mixed load's runs.
func (r *report) printMixed(out io.Writer) {
	o := r.opts
	fmt.Fprintf(out, "\nMixed load: %d keep-alive connections for %s per run, anonymous GETs spread over %d URLs (issues, their comments, issue list pages, directories, raw files) and signed-in comments on random issues\n",
		o.conns, o.duration, r.mixed.urls)
	if r.mixed.unavailable != "" || len(r.mixed.runs) == 0 {
		fmt.Fprintf(out, "  %s %s\n", na, r.mixed.unavailable)
		return
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "writes\treq/s\treads\tread p50\tread p99\tread max\twrites\twrite p50\twrite p99\terrors (r/w)\t")
	for _, m := range r.mixed.runs {
		fmt.Fprintf(tw, "%d%%\t%.0f\t%d\t%s\t%s\t%s\t%d\t%s\t%s\t%d/%d\t\n", m.writePct, m.rps(), len(m.reads), p50(m.reads), p99(m.reads), maxOf(m.reads),
			len(m.writes), p50(m.writes), p99(m.writes), m.readErrors, m.writeErrors)
		if m.firstFailure != "" {
			r.notes.add("mixed load with %d%% writes, first failure: %s", m.writePct, m.firstFailure)
		}
	}
	tw.Flush()
}
