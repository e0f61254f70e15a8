package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/dforge/dforge/bench/internal/corpus"
)

// report is what the run measured, printed as a table at the end.
type report struct {
	opts               options
	big                *corpus.Repo
	lag                lagResult
	bigPush            time.Duration
	clone              cloneResult
	viaGit, viaBitswap freshResult
	memory             []nodeMemory
	disk               []nodeDisk
	notes              []string
}

type nodeMemory struct {
	name      string
	rss, peak int64
}

func (r *report) note(format string, args ...any) {
	r.notes = append(r.notes, fmt.Sprintf(format, args...))
}

func (r *report) print(out io.Writer) {
	fmt.Fprintln(out, "## Replication (2 validators, 2 full nodes, loopback)")
	fmt.Fprintln(out)
	fmt.Fprintln(out, "| figure | value | target |")
	fmt.Fprintln(out, "|---|---|---|")
	if r.lag.failure != "" {
		fmt.Fprintf(out, "| replication lag of a small push | failed: %s | p50 < 1 s |\n", r.lag.failure)
	}
	if len(r.lag.lags) > 0 {
		p50, p99 := percentiles(r.lag.lags)
		fmt.Fprintf(out, "| replication lag of a small push, p50 / p99 (%d pushes) | %s / %s | p50 < 1 s |\n", len(r.lag.lags), ms(p50), ms(p99))
		fmt.Fprintf(out, "| its push, acknowledged, p50 / p99 | %s / %s | |\n", ms(percentile(r.lag.pushes, 50)), ms(percentile(r.lag.pushes, 99)))
	}
	clone, cloned := r.clone.median()
	if r.big != nil {
		fmt.Fprintf(out, "| the bench repository | %.1f MB packed, %d objects, %d commits | |\n", mb(r.big.Info.PackedBytes), r.big.Info.Objects, r.big.Info.Commits)
	}
	if r.bigPush > 0 {
		fmt.Fprintf(out, "| its push to node0 | %s | |\n", r.bigPush.Round(time.Millisecond))
	}
	switch {
	case cloned:
		fmt.Fprintf(out, "| git clone from node0 (median of %d) | %s, %.1f MB/s | |\n", len(r.clone.rounds), clone.d.Round(time.Millisecond), clone.mbps())
	case r.clone.failure != "":
		fmt.Fprintf(out, "| git clone from node0 | failed: %s | |\n", r.clone.failure)
	}
	r.printFresh(out, "replicated to a fresh node from dForge peers (git)", r.viaGit, clone, cloned, "≥ 0.8 × git clone")
	r.printFresh(out, "replicated to a fresh node over bitswap (no dForge peer reachable)", r.viaBitswap, clone, cloned, "≥ 0.25 × git clone")
	for _, m := range r.memory {
		fmt.Fprintf(out, "| %s resident memory at the end / peak | %s / %s | |\n", m.name, mib(m.rss), mib(m.peak))
	}
	for _, d := range r.disk {
		ratio := "-"
		if d.git > 0 {
			ratio = fmt.Sprintf("%.2f × git", float64(d.git+d.blocks)/float64(d.git))
		}
		fmt.Fprintf(out, "| %s disk: git's bare repositories / blockstore (du) | %s / %s, together %s | ≤ 1.2 × git |\n", d.name, mib(d.git), mib(d.blocks), ratio)
	}
	fmt.Fprintln(out, "| libp2p + bitswap per node | see make bench-p2p (bench/p2p/README.md) | < 100 MB |")
	if len(r.notes) > 0 {
		fmt.Fprintln(out, "\nNotes:")
		for _, n := range r.notes {
			fmt.Fprintln(out, "- "+n)
		}
	}
}

// printFresh prints a fresh node's replication and its speed against git
// clone's (time of clone / time of replication).
func (r *report) printFresh(out io.Writer, what string, f freshResult, clone transfer, cloned bool, target string) {
	switch {
	case f.failure != "":
		fmt.Fprintf(out, "| %s | failed: %s | %s |\n", what, strings.ReplaceAll(f.failure, "\n", " "), target)
	case f.replicator > 0:
		ratio := "-"
		if cloned {
			ratio = fmt.Sprintf("%.2f × git clone", clone.d.Seconds()/f.replicator.Seconds())
		}
		fmt.Fprintf(out, "| %s | %s (%.1f MB/s), %s; %s from the node's start; objects from %s | %s |\n",
			what, f.replicator.Round(time.Millisecond), mb(f.bytes)/f.replicator.Seconds(), ratio, f.wall.Round(time.Millisecond), f.source, target)
	}
}

func mib(n int64) string { return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20)) }
