package forgenode

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Binary is the binary a benchmark runs: -bin when given, else this
// tree's ./cmd/dforge built into tmp (the build cache makes that quick
// after the first time). If the tree does not build (other work in
// progress), bin/dforge is used when there is one, and note says so.
func Binary(ctx context.Context, bin, tmp string, note func(format string, args ...any), out io.Writer) (string, error) {
	if bin != "" {
		return filepath.Abs(bin)
	}
	root, err := moduleRoot(ctx)
	if err != nil {
		return "", err
	}
	dest := filepath.Join(tmp, "dforge")
	t0 := time.Now()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", dest, "./cmd/dforge")
	cmd.Dir = root
	msg, err := cmd.CombinedOutput()
	if err == nil {
		fmt.Fprintf(out, "  built ./cmd/dforge in %s\n", time.Since(t0).Round(100*time.Millisecond))
		return dest, nil
	}
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	prebuilt := filepath.Join(root, "bin", "dforge")
	st, statErr := os.Stat(prebuilt)
	if statErr != nil {
		return "", fmt.Errorf("go build ./cmd/dforge: %w\n%s", err, msg)
	}
	note("this tree did not build (%s), so the run used bin/dforge built %s", FirstLine(string(msg)), st.ModTime().Format(time.DateTime))
	fmt.Fprintf(out, "  ./cmd/dforge does not build; using bin/dforge of %s\n", st.ModTime().Format(time.DateTime))
	return prebuilt, nil
}

func moduleRoot(ctx context.Context) (string, error) {
	b, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	mod := strings.TrimSpace(string(b))
	if err != nil || mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("run this from the dForge module (go env GOMOD: %q, %v)", mod, err)
	}
	return filepath.Dir(mod), nil
}

func FirstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " ..."
	}
	return s
}

// Node is a `dforge <args>` subprocess (serve) on 127.0.0.1, in its own process
// group so that git processes it leaves behind can be ended with it.
type Node struct {
	Bin, LogPath string
	Args, Env    []string
	URL          string // from its "running at" line
	Logs         *LogCounter
	cmd          *exec.Cmd
	exited       chan struct{}
	logFile      *os.File
}

var runningAt = regexp.MustCompile(`running at (http://\S+)`)

// Start runs `bin args...` (a `dforge serve`) with env added to this
// process's environment less its DFORGE_ settings, its stderr appended to
// logPath, and waits until it says where it listens.
func Start(ctx context.Context, bin string, args, env []string, logPath string) (*Node, error) {
	n := &Node{Bin: bin, Args: args, Env: env, LogPath: logPath, Logs: newLogCounter()}
	return n, n.start(ctx)
}

func (n *Node) start(ctx context.Context) error {
	logFile, err := os.OpenFile(n.LogPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	cmd := exec.Command(n.Bin, n.Args...)
	cmd.Env = append(append(envWithout(envWithout(os.Environ(), "DFORGE_"), "SENTRY_DSN="), "DFORGE_DB="), n.Env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		logFile.Close()
		return err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		logFile.Close()
		return err
	}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return fmt.Errorf("start %s: %w", n.Bin, err)
	}
	n.cmd, n.logFile, n.exited = cmd, logFile, make(chan struct{})
	urls := make(chan string, 1)
	var pipes sync.WaitGroup
	pipes.Go(func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := runningAt.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case urls <- m[1]:
				default:
				}
			}
		}
	})
	pipes.Go(func() { n.Logs.consume(io.TeeReader(stderr, logFile)) })
	go func() {
		pipes.Wait() // reading ends before Wait closes the pipes
		cmd.Wait()
		close(n.exited)
	}()

	wait, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	select {
	case n.URL = <-urls:
		return nil
	case <-n.exited:
		return fmt.Errorf("dforge serve exited during start-up (%s); its log: %s%s", cmd.ProcessState, n.LogPath, n.Logs.Last())
	case <-wait.Done():
		return errors.Join(fmt.Errorf("dforge serve did not start: %w", wait.Err()), n.Stop())
	}
}

// PID is the node's process id.
func (n *Node) PID() int { return n.cmd.Process.Pid }

// Restart stops the node and starts it again on the same data dir: a
// fresh process, whose peak RSS counts from zero.
func (n *Node) Restart(ctx context.Context) error {
	if err := n.Stop(); err != nil {
		return err
	}
	return n.start(ctx)
}

// Stop asks the node to shut down (SIGTERM), waits, and kills its process
// group if it has not gone after 30 s.
func (n *Node) Stop() error {
	if n.cmd == nil {
		return nil
	}
	defer func() { n.cmd = nil; n.logFile.Close() }()
	pgid := n.cmd.Process.Pid
	n.Logs.SetMuted(true) // CometBFT's shutdown lines are no news
	defer n.Logs.SetMuted(false)
	select {
	case <-n.exited:
		return nil
	default:
	}
	n.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-n.exited:
		syscall.Kill(-pgid, syscall.SIGKILL) // git processes it may have left
		return nil
	case <-time.After(30 * time.Second):
	}
	syscall.Kill(-pgid, syscall.SIGKILL)
	<-n.exited
	return errors.New("dforge serve did not stop within 30 s of SIGTERM and was killed")
}

// LogCounter counts the warnings and errors of the node's JSON log by
// message and error, so a failure under load shows up once in the report.
type LogCounter struct {
	mu     sync.Mutex
	muted  bool
	counts map[string]*LogLine
	order  []string
	tail   []string // the last lines, for a node that dies at start-up
}

// LogLine is a warning or error and how often it was logged.
type LogLine struct {
	Level, Text string
	Count       int
}

func newLogCounter() *LogCounter { return &LogCounter{counts: map[string]*LogLine{}} }

func (l *LogCounter) consume(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		l.add(sc.Text())
	}
	io.Copy(io.Discard, r)
}

func (l *LogCounter) add(line string) {
	var rec map[string]any
	l.mu.Lock()
	defer l.mu.Unlock()
	l.tail = append(l.tail, line)
	if len(l.tail) > 5 {
		l.tail = l.tail[1:]
	}
	if l.muted || json.Unmarshal([]byte(line), &rec) != nil {
		return // shutting down; CometBFT's own lines, panics: kept in the log file
	}
	level, _ := rec["level"].(string)
	if level != "WARN" && level != "ERROR" {
		return
	}
	text, _ := rec["msg"].(string)
	for _, k := range []string{"err", "error"} {
		if v, ok := rec[k]; ok {
			text += fmt.Sprintf(" (%s: %v)", k, v)
		}
	}
	if len(text) > 300 {
		text = text[:300] + "..."
	}
	key := level + " " + text
	if c, ok := l.counts[key]; ok {
		c.Count++
		return
	}
	l.counts[key] = &LogLine{Level: level, Text: text, Count: 1}
	l.order = append(l.order, key)
}

func (l *LogCounter) SetMuted(m bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.muted = m
}

// Top is the k most frequent warnings and errors.
func (l *LogCounter) Top(k int) []LogLine {
	l.mu.Lock()
	defer l.mu.Unlock()
	lines := make([]LogLine, 0, len(l.order))
	for _, key := range l.order {
		lines = append(lines, *l.counts[key])
	}
	sort.SliceStable(lines, func(i, j int) bool { return lines[i].Count > lines[j].Count })
	return lines[:min(len(lines), k)]
}

func (l *LogCounter) Last() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.tail) == 0 {
		return ""
	}
	return "\n  " + strings.Join(l.tail, "\n  ")
}

// envWithout drops the variables that start with prefix.
func envWithout(env []string, prefix string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, prefix) {
			out = append(out, kv)
		}
	}
	return out
}

// Memory is the node's resident memory now (VmRSS) and at its peak since
// it started (VmHWM), in bytes, from /proc.
func (n *Node) Memory() (rss, peak int64, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", n.PID()))
	if err != nil {
		return 0, 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		switch {
		case ok && k == "VmRSS":
			rss = kb << 10
		case ok && k == "VmHWM":
			peak = kb << 10
		}
	}
	return rss, peak, nil
}

// cpuTicks is the CPU time the node has used (user and system), in clock
// ticks, from /proc.
func (n *Node) cpuTicks() (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", n.PID()))
	if err != nil {
		return 0, err
	}
	// The fields after the command's name, which may hold spaces: state
	// is the first, utime and stime the 12th and 13th.
	_, rest, ok := strings.Cut(string(b), ") ")
	f := strings.Fields(rest)
	if !ok || len(f) < 13 {
		return 0, fmt.Errorf("read /proc/%d/stat: %q", n.PID(), b)
	}
	user, err1 := strconv.ParseInt(f[11], 10, 64)
	sys, err2 := strconv.ParseInt(f[12], 10, 64)
	return user + sys, errors.Join(err1, err2)
}

// WaitIdle waits until the node uses under a tenth of a core over a
// second (its background work done: a merge of the code search index
// after a large indexing), at most limit, and says how long it waited.
func (n *Node) WaitIdle(ctx context.Context, limit time.Duration) (time.Duration, error) {
	start := time.Now()
	last, err := n.cpuTicks()
	if err != nil {
		return 0, err
	}
	for time.Since(start) < limit {
		select {
		case <-ctx.Done():
			return time.Since(start), ctx.Err()
		case <-time.After(time.Second):
		}
		now, err := n.cpuTicks()
		if err != nil {
			return time.Since(start), err
		}
		if now-last < 10 { // 100 ticks a second on Linux
			return time.Since(start), nil
		}
		last = now
	}
	return time.Since(start), fmt.Errorf("the node still busy after %s", limit)
}
