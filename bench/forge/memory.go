package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dforge/dforge/bench/internal/corpus"
	"github.com/dforge/dforge/internal/forgenode"
)

// memPhase is the memory of one git operation through the node.
type memPhase struct {
	what        string
	unavailable string
	t           transfer
	stored      time.Duration // after a push: until its blocks were stored
	node        procPeak      // the node process
	child       procPeak      // its largest descendant (git upload-pack, pack-objects, ...)
	samples     int
}

type memoryResult struct {
	push, clone memPhase
}

// benchMemory pushes the ~1 GB repository into a new dForge repository,
// then clones it, sampling /proc all the while. The node is restarted
// before each, so each peak (VmHWM counts from the process's start) is the
// operation's own and not that of the load tests before it.
func benchMemory(ctx context.Context, g *gitTool, c *forgenode.Client, n *forgenode.Node, huge *corpus.Repo, dest string, notes *notes, out io.Writer) memoryResult {
	r := memoryResult{
		push:  memPhase{what: fmt.Sprintf("push of %.0f MB into a new repository and the storage of its blocks, node restarted first", mb(huge.Info.PackedBytes))},
		clone: memPhase{what: fmt.Sprintf("clone of %.0f MB, node restarted first", mb(huge.Info.PackedBytes))},
	}
	repo, err := c.CreateRepo(ctx, "bench-huge")
	if err != nil {
		r.push.unavailable, r.clone.unavailable = err.Error(), err.Error()
		fmt.Fprintf(out, "  not available (%s)\n", err)
		return r
	}
	if err := n.Restart(ctx); err != nil {
		r.push.unavailable, r.clone.unavailable = "restart the node: "+err.Error(), "restart the node: "+err.Error()
		return r
	}
	c.Base = n.URL // a restarted node listens on another free port
	s := sample(n.PID())
	r.push.t.bytes = huge.Info.PackedBytes
	r.push.t.d, err = g.push(ctx, huge.Path, authed(c.GitURL(*repo), c.Token))
	if err == nil {
		// The peak covers the storage of the push's blocks too, and the
		// clone after the restart runs alone.
		r.push.stored, err = c.WaitForBlocks(ctx)
	}
	r.push.node, r.push.child, r.push.samples = s.stop()
	if err != nil {
		r.push.unavailable, r.clone.unavailable = err.Error(), "the push failed"
		fmt.Fprintf(out, "  push: failed (%s)\n", err)
		return r
	}
	fmt.Fprintf(out, "  push: %s, its blocks stored %s later, node peak RSS %s\n", r.push.t.d.Round(time.Millisecond), r.push.stored.Round(time.Millisecond), mib(r.push.node.hwm))

	if err := n.Restart(ctx); err != nil {
		r.clone.unavailable = "restart the node: " + err.Error()
		return r
	}
	c.Base = n.URL
	s = sample(n.PID())
	r.clone.t.d, r.clone.t.bytes, err = g.clone(ctx, remote{url: c.GitURL(*repo)}, dest)
	r.clone.node, r.clone.child, r.clone.samples = s.stop()
	if err == nil {
		var head string
		if head, err = g.Head(ctx, dest, corpus.Branch); err == nil && head != huge.Info.Head {
			err = fmt.Errorf("the clone has %s at %s, want %s", corpus.Branch, head, huge.Info.Head)
		}
	}
	os.RemoveAll(dest)
	if err != nil {
		r.clone.unavailable = err.Error()
		fmt.Fprintf(out, "  clone: failed (%s)\n", err)
		return r
	}
	fmt.Fprintf(out, "  clone: %s, node peak RSS %s\n", r.clone.t.d.Round(time.Millisecond), mib(r.clone.node.hwm))
	if r.clone.samples < 10 {
		notes.add("the clone was sampled only %d times; the peaks may miss a short spike", r.clone.samples)
	}
	return r
}

// procPeak is the largest memory a process was seen with. VmRSS and VmHWM
// count the file pages a process maps, and git maps its packs whole, so
// the anonymous part (RssAnon: heap, stacks) is kept apart.
type procPeak struct {
	name           string
	rss, hwm, anon int64 // bytes: largest VmRSS and RssAnon sampled, last VmHWM read
}

// sampler polls /proc every 20 ms: the node's VmRSS, RssAnon and VmHWM
// (the kernel's own peak, which catches what sampling misses), and the
// same for every descendant of the node.
type sampler struct {
	pid   int
	stopc chan struct{}
	done  chan struct{}

	mu       sync.Mutex
	node     procPeak
	children map[int]*procPeak
	samples  int
}

func sample(pid int) *sampler {
	s := &sampler{pid: pid, stopc: make(chan struct{}), done: make(chan struct{}), children: map[int]*procPeak{}}
	go s.loop()
	return s
}

func (s *sampler) loop() {
	defer close(s.done)
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for {
		s.once()
		select {
		case <-s.stopc:
			s.once()
			return
		case <-t.C:
		}
	}
}

func (s *sampler) once() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.samples++
	if st, ok := readStatus(s.pid); ok {
		s.node.name = st.name
		s.node.update(st)
	}
	for _, pid := range descendants(s.pid) {
		st, ok := readStatus(pid)
		if !ok {
			continue
		}
		p := s.children[pid]
		if p == nil {
			p = &procPeak{name: command(pid, st.name)}
			s.children[pid] = p
		}
		p.update(st)
	}
}

func (p *procPeak) update(st procStatus) {
	p.rss, p.hwm, p.anon = max(p.rss, st.rss), max(p.hwm, st.hwm), max(p.anon, st.anon)
}

// stop ends the sampling and returns the node's peaks, those of its
// descendant with the highest VmHWM, and the number of samples.
func (s *sampler) stop() (node, child procPeak, samples int) {
	close(s.stopc)
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.children {
		if p.hwm > child.hwm {
			child = *p
		}
	}
	return s.node, child, s.samples
}

type procStatus struct {
	name           string
	rss, hwm, anon int64
}

// readStatus reads Name, VmRSS, VmHWM and RssAnon from /proc/<pid>/status.
func readStatus(pid int) (procStatus, bool) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return procStatus{}, false
	}
	var st procStatus
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		val = strings.TrimSpace(val)
		switch key {
		case "Name":
			st.name = val
		case "VmRSS":
			st.rss = kB(val)
		case "VmHWM":
			st.hwm = kB(val)
		case "RssAnon":
			st.anon = kB(val)
		}
	}
	return st, st.name != ""
}

// command names a process by its program and subcommand ("git
// pack-objects", "dforge hook"), skipping git's -c settings.
func command(pid int, fallback string) string {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
	args := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
	if err != nil || args[0] == "" {
		return fallback
	}
	name := filepath.Base(args[0])
	for i := 1; i < len(args); i++ {
		switch {
		case args[i] == "-c":
			i++
		case !strings.HasPrefix(args[i], "-"):
			return name + " " + args[i]
		}
	}
	return name
}

func kB(v string) int64 {
	n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(v, "kB")), 10, 64)
	return n * 1024
}

// descendants lists the children of pid, their children, and so on, from
// /proc/<pid>/task/<tid>/children (a Go process starts children from any
// of its threads).
func descendants(pid int) []int {
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		tasks, _ := os.ReadDir(filepath.Join("/proc", strconv.Itoa(p), "task"))
		for _, t := range tasks {
			b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(p), "task", t.Name(), "children"))
			if err != nil {
				continue
			}
			for _, f := range strings.Fields(string(b)) {
				if c, err := strconv.Atoi(f); err == nil {
					out = append(out, c)
					queue = append(queue, c)
				}
			}
		}
	}
	return out
}

func mib(n int64) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
}
