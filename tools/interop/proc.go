package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// proc is a long-running child (dforge serve, ipfs daemon) in its own
// process group, its output copied to a log file and shown line by line to
// watch, which says when the child is ready.
type proc struct {
	name    string
	cmd     *exec.Cmd
	logPath string
	exited  chan struct{}
}

// startProc starts cmd and waits until watch returns true for a line of
// its output, the child exits, or wait passes.
func (r *run) startProc(ctx context.Context, name, logPath string, cmd *exec.Cmd, wait time.Duration, watch func(line string) bool) (*proc, error) {
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		logFile.Close()
		return nil, err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		logFile.Close()
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	p := &proc{name: name, cmd: cmd, logPath: logPath, exited: make(chan struct{})}
	r.onExit(p.stop)

	ready := make(chan struct{})
	var once sync.Once
	var mu sync.Mutex // one writer to the log at a time
	var pipes sync.WaitGroup
	scan := func(rd io.Reader) {
		sc := bufio.NewScanner(rd)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			mu.Lock()
			fmt.Fprintln(logFile, line)
			ok := watch(line)
			mu.Unlock()
			if ok {
				once.Do(func() { close(ready) })
			}
		}
	}
	pipes.Go(func() { scan(stdout) })
	pipes.Go(func() { scan(stderr) })
	go func() {
		pipes.Wait() // reading ends before Wait closes the pipes
		cmd.Wait()
		logFile.Close()
		close(p.exited)
	}()

	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-ready:
		return p, nil
	case <-p.exited:
		return nil, fmt.Errorf("%s exited during start-up (%s); its log: %s%s", name, cmd.ProcessState, logPath, tail(logPath))
	case <-timer.C:
		return nil, fmt.Errorf("%s was not ready within %s; its log: %s%s", name, wait, logPath, tail(logPath))
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// stop sends SIGTERM, waits up to 20 s, then kills the process group
// (git processes the node may have left, too).
func (p *proc) stop() {
	pgid := p.cmd.Process.Pid
	select {
	case <-p.exited:
	default:
		p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.exited:
		case <-time.After(20 * time.Second):
			fmt.Fprintf(os.Stderr, "interop: %s did not stop within 20 s of SIGTERM; killing it\n", p.name)
		}
	}
	syscall.Kill(-pgid, syscall.SIGKILL)
	<-p.exited
}

// tail is the end of a log file, for an error message.
func tail(path string) string {
	b, err := os.ReadFile(path)
	if err != nil || len(b) == 0 {
		return ""
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	lines = lines[max(0, len(lines)-15):]
	return "\n  " + strings.Join(lines, "\n  ")
}

// runCmd runs a short command with a timeout and returns its stdout; the
// error carries its stderr.
func runCmd(ctx context.Context, timeout time.Duration, cmd *exec.Cmd) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c := exec.CommandContext(ctx, cmd.Path, cmd.Args[1:]...)
	c.Dir, c.Env, c.Stdin = cmd.Dir, cmd.Env, cmd.Stdin
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.Cancel = func() error { return syscall.Kill(-c.Process.Pid, syscall.SIGKILL) }
	c.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	err := c.Run()
	if ctx.Err() == context.DeadlineExceeded {
		return stdout.Bytes(), fmt.Errorf("%s: no answer within %s: %s", strings.Join(c.Args, " "), timeout, strings.TrimSpace(stderr.String()))
	}
	if err != nil {
		return stdout.Bytes(), fmt.Errorf("%s: %w: %s", strings.Join(c.Args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}

// freePort is a TCP port on 127.0.0.1 that nothing listens on now.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// envWithout is env without the variables whose names start with prefix.
func envWithout(env []string, prefix string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if !strings.HasPrefix(kv, prefix) {
			out = append(out, kv)
		}
	}
	return out
}
