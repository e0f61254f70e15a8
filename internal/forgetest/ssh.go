package forgetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// WithSSH serves git over SSH on a free loopback port (Node.SSHAddr).
func WithSSH() Option {
	return func(o *options) { o.ssh = true }
}

// SSHKey makes a new ed25519 key pair with ssh-keygen and returns the
// private key's file and the public key's authorized_keys line.
func (n *Node) SSHKey() (private, public string) {
	n.t.Helper()
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		n.t.Fatal("the SSH tests need OpenSSH's client (scripts/ensure-ssh.sh)")
	}
	dir, err := os.MkdirTemp(n.Dir, "sshkey-")
	if err != nil {
		n.t.Fatal(err)
	}
	private = filepath.Join(dir, "id_ed25519")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "test@dforge", "-f", private).CombinedOutput(); err != nil {
		n.t.Fatalf("ssh-keygen: %v\n%s", err, out)
	}
	pub, err := os.ReadFile(private + ".pub")
	if err != nil {
		n.t.Fatal(err)
	}
	return private, strings.TrimSpace(string(pub))
}

// SSHRemote is the ssh:// clone URL of owner/name.
func (n *Node) SSHRemote(owner, name string) string {
	return "ssh://git@" + n.SSHAddr + "/" + owner + "/" + name + ".git"
}

// SSHCommand is GIT_SSH_COMMAND for a client with only the key in
// keyFile, trusting the node's host key without keeping it.
func SSHCommand(keyFile string) string {
	args := SSHArgs(keyFile)
	args[1] = strconv.Quote(keyFile)
	return "ssh " + strings.Join(args, " ")
}

// SSHArgs are SSHCommand's arguments, for running ssh itself.
func SSHArgs(keyFile string) []string {
	return []string{"-i", keyFile, "-o", "IdentitiesOnly=yes", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
		"-o", "BatchMode=yes", "-o", "LogLevel=ERROR", "-F", "/dev/null"}
}

// TryGitSSH runs git in dir over SSH with keyFile and returns its
// combined output and error.
func (n *Node) TryGitSSH(dir, keyFile string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(n.gitEnv(), "GIT_SSH_COMMAND="+SSHCommand(keyFile))
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// GitSSH is TryGitSSH failing the test on error.
func (n *Node) GitSSH(dir, keyFile string, args ...string) string {
	n.t.Helper()
	out, err := n.TryGitSSH(dir, keyFile, args...)
	if err != nil {
		n.t.Fatalf("git %s over ssh: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}
