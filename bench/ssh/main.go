// Command ssh is dForge's git-over-SSH benchmark (`make bench-ssh`): clone
// throughput of the same repository over SSH and over Smart HTTP from one
// node, and their ratio (the target is 0.9 or more). The repository is the
// one bench-forge clones, built once into its cache.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/dforge/dforge/bench/internal/corpus"
	"github.com/dforge/dforge/internal/forgenode"
)

type options struct {
	bin     string
	cache   string
	bigMB   int
	rounds  int
	cipher  string
	timeout time.Duration
}

func main() { os.Exit(run0()) }

func run0() int {
	var o options
	flag.StringVar(&o.bin, "bin", "", "the dforge binary; empty builds one from this module")
	flag.StringVar(&o.cache, "cache", corpus.DefaultCache(), "directory where bench-forge builds its repositories once")
	flag.IntVar(&o.bigMB, "big-mb", 200, "packed size in MB of the repository cloned")
	flag.IntVar(&o.rounds, "rounds", 3, "clones per protocol (the median counts)")
	flag.StringVar(&o.cipher, "cipher", "", "the ssh client's cipher (ssh -c), e.g. aes128-gcm@openssh.com; empty: the client's default")
	flag.DurationVar(&o.timeout, "timeout", 30*time.Minute, "give up after this long")
	quick := flag.Bool("quick", false, "a smoke run: the 16 MB repository, 2 rounds")
	flag.Parse()
	if *quick {
		o.bigMB, o.rounds = 16, 2
	}
	if o.rounds < 1 || o.bigMB < 1 {
		fmt.Fprintln(os.Stderr, "bench-ssh: -rounds and -big-mb must be positive")
		return 2
	}
	var err error
	if o.cache, err = filepath.Abs(o.cache); err != nil {
		fmt.Fprintln(os.Stderr, "bench-ssh:", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	if err := run(ctx, o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bench-ssh:", err)
		return 1
	}
	return 0
}

func run(ctx context.Context, o options, out io.Writer) (err error) {
	tmp, err := os.MkdirTemp("", "dforge-bench-ssh-")
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, os.RemoveAll(tmp)) }()
	g, err := corpus.NewGit(tmp)
	if err != nil {
		return err
	}
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Fprintf(out, "dForge git-over-SSH benchmark: GOMAXPROCS=%d, %s, load %s\n", runtime.GOMAXPROCS(0), g.Version, strings.Join(strings.Fields(string(load))[:min(3, len(strings.Fields(string(load))))], " "))

	// 1. The binary, the repository, a node listening for SSH.
	bin, err := forgenode.Binary(ctx, o.bin, tmp, func(f string, a ...any) { fmt.Fprintf(out, "note: "+f+"\n", a...) }, out)
	if err != nil {
		return err
	}
	big, err := corpus.Big(ctx, g, o.cache, o.bigMB, out)
	if err != nil {
		return fmt.Errorf("build the %d MB repository: %w", o.bigMB, err)
	}
	sshPort, err := freePort()
	if err != nil {
		return err
	}
	data := filepath.Join(tmp, "node")
	n, err := forgenode.Start(ctx, bin, []string{"serve", "--data", data, "--addr", "127.0.0.1:0",
		"--rpc-addr", "tcp://127.0.0.1:0", "--p2p-addr", "tcp://127.0.0.1:0", "--ssh-addr", "127.0.0.1:" + strconv.Itoa(sshPort)}, nil, filepath.Join(tmp, "node.log"))
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, n.Stop()) }()
	c, err := forgenode.SignIn(ctx, n.URL)
	if err != nil {
		return fmt.Errorf("sign in: %w", err)
	}

	// 2. The repository pushed over HTTP, a key registered.
	repo, err := c.CreateRepo(ctx, "bench-ssh")
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "pushing the %.0f MB repository ...\n", float64(big.Info.PackedBytes)/1e6)
	httpURL := strings.Replace(c.GitURL(*repo), "http://", "http://bench:"+c.Token+"@", 1)
	if _, err := g.Output(ctx, big.Path, "push", "--quiet", httpURL, "refs/heads/*:refs/heads/*"); err != nil {
		return fmt.Errorf("push: %w", err)
	}
	key := filepath.Join(tmp, "id_ed25519")
	if b, err := exec.CommandContext(ctx, "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key).CombinedOutput(); err != nil {
		return fmt.Errorf("ssh-keygen (scripts/ensure-ssh.sh installs it): %v: %s", err, b)
	}
	pub, err := os.ReadFile(key + ".pub")
	if err != nil {
		return err
	}
	if err := c.Call(ctx, "POST", "/api/v1/user/keys", map[string]string{"title": "bench", "key": string(pub)}, nil, nil); err != nil {
		return fmt.Errorf("add the key: %w", err)
	}
	sshURL := fmt.Sprintf("ssh://git@127.0.0.1:%d/%s.git", sshPort, repo.Path())
	sshEnv := "GIT_SSH_COMMAND=ssh -i " + key + " -o IdentitiesOnly=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR -F /dev/null"
	if o.cipher != "" {
		sshEnv += " -c " + o.cipher
	}

	// 3. Clones, the two protocols alternating first, once the node has
	// stored the push's blocks (that job would bill its CPU to the first
	// clone) and after one untimed clone that warms the page cache.
	if _, err := c.WaitForBlocks(ctx); err != nil {
		return fmt.Errorf("wait for the push's blocks: %w", err)
	}
	warm := filepath.Join(tmp, "clone-warm")
	if _, _, err := clone(ctx, g, httpURL, nil, warm); err != nil {
		return fmt.Errorf("warm-up clone: %w", err)
	}
	os.RemoveAll(warm)
	fmt.Fprintf(out, "cloning %d time(s) over each protocol ...\n", o.rounds)
	rates, cpu := map[string][]float64{}, map[string][]float64{}
	for i := range o.rounds {
		order := []string{"http", "ssh"}
		if i%2 == 1 {
			order = []string{"ssh", "http"}
		}
		for _, proto := range order {
			url, env := httpURL, []string(nil)
			if proto == "ssh" {
				url, env = sshURL, []string{sshEnv}
			}
			dest := filepath.Join(tmp, fmt.Sprintf("clone-%s-%d", proto, i))
			cpu0 := cpuSeconds(n.PID())
			d, size, err := clone(ctx, g, url, env, dest)
			if err != nil {
				return fmt.Errorf("clone over %s: %w", proto, err)
			}
			used := cpuSeconds(n.PID()) - cpu0
			rate := float64(size) / 1e6 / d.Seconds()
			rates[proto] = append(rates[proto], rate)
			cpu[proto] = append(cpu[proto], used)
			fmt.Fprintf(out, "  round %d %-4s %6.2fs %8.1f MB/s  node CPU %5.2fs\n", i+1, proto, d.Seconds(), rate, used)
			os.RemoveAll(dest)
		}
	}
	h, s := median(rates["http"]), median(rates["ssh"])
	verdict := "meets"
	if s/h < 0.9 {
		verdict = "misses"
	}
	fmt.Fprintf(out, "\nclone of %.0f MB (median of %d): Smart HTTP %.1f MB/s, SSH %.1f MB/s, ratio SSH/HTTP %.2f (%s the 0.9 target)\n",
		float64(big.Info.PackedBytes)/1e6, o.rounds, h, s, s/h, verdict)
	// CPU time does not depend on what else the machine runs, as wall
	// time does: it says what serving over SSH costs the node.
	fmt.Fprintf(out, "node CPU per clone (median, git included): Smart HTTP %.2fs, SSH %.2fs\n", median(cpu["http"]), median(cpu["ssh"]))
	return nil
}

// clone is `git clone --bare --no-local` of url into dest: its time and
// the bytes of the pack received.
func clone(ctx context.Context, g *corpus.Git, url string, env []string, dest string) (time.Duration, int64, error) {
	cmd := g.Command(ctx, "", "clone", "--bare", "--no-local", "--quiet", url, dest)
	cmd.Env = append(slices.Clone(cmd.Env), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	t0 := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, 0, fmt.Errorf("%v: %s", err, stderr.String())
	}
	d := time.Since(t0)
	size, err := corpus.PackBytes(dest)
	return d, size, err
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// cpuSeconds is the CPU time of process pid and its waited-for children
// (the git processes it ran), from /proc; 0 where that cannot be read.
func cpuSeconds(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// Fields after the command name, which may hold spaces: state is 3rd,
	// utime, stime, cutime, cstime the 14th to 17th.
	_, rest, ok := strings.Cut(string(b), ") ")
	f := strings.Fields(rest)
	if !ok || len(f) < 15 {
		return 0
	}
	var ticks float64
	for _, v := range f[11:15] {
		n, _ := strconv.ParseFloat(v, 64)
		ticks += n
	}
	return ticks / 100 // USER_HZ is 100 on Linux
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
