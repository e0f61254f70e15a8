package gitserver

import (
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// pipeSize is the buffer of the pipe that feeds a push to receive-pack.
// Linux's default of 64 KiB makes the copy from the client wake git, and
// git wake the copy, every 64 KiB: on two cores that cost the 200 MB bench
// push about a tenth of a second against git http-backend.
const pipeSize = 1 << 20

// growPipe enlarges w's pipe buffer to pipeSize, or to the most an
// unprivileged process may set (/proc/sys/fs/pipe-max-size) when that is
// less; w not being a pipe, or a failure, leaves it as it was.
func growPipe(w any) {
	f, ok := w.(interface{ Fd() uintptr })
	if !ok {
		return
	}
	if _, err := unix.FcntlInt(f.Fd(), unix.F_SETPIPE_SZ, pipeSize); err == nil {
		return
	}
	if most := pipeMax(); most > 0 && most < pipeSize {
		unix.FcntlInt(f.Fd(), unix.F_SETPIPE_SZ, most)
	}
}

// pipeMax is the system's limit on a pipe's buffer, 0 if unknown.
func pipeMax() int {
	b, err := os.ReadFile("/proc/sys/fs/pipe-max-size")
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return n
}
