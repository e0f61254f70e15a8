package gitserver

import (
	"os"
	"os/exec"
	"testing"

	"golang.org/x/sys/unix"
)

// The pipe that feeds receive-pack grows to pipeSize, as exec's stdin pipe
// and as a bare os.Pipe; anything else is left alone.
func TestGrowPipe(t *testing.T) {
	cmd := exec.Command("true")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	want := pipeSize
	if os.Geteuid() != 0 && pipeMax() < want {
		want = pipeMax() // the most this user may set
	}
	for name, p := range map[string]any{"exec stdin": stdin, "os.Pipe": w} {
		growPipe(p)
		size, err := unix.FcntlInt(p.(interface{ Fd() uintptr }).Fd(), unix.F_GETPIPE_SZ, 0)
		if err != nil || size < want {
			t.Errorf("%s: pipe buffer %d, %v; want at least %d", name, size, err, want)
		}
	}
	growPipe(struct{}{}) // not a file: nothing happens
}
