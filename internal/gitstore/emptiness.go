package gitstore

import (
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// Which repositories have a branch, remembered by the state of the files
// that hold branches, so that IsEmpty need not list refs/heads and read
// packed-refs on every call.
//
// A repository loses its last branch only by a change to one of them:
//   - git deletes a loose branch by removing its file, and then the
//     directories it leaves empty, so refs/heads itself changes (a nested
//     branch's directory goes with it);
//   - git rewrites packed-refs whole, a new file renamed over the old one,
//     so its inode changes.
//
// The stamp is refs/heads' modification time and packed-refs' inode,
// size and time. A directory's time moves in clock ticks, so a change
// within the tick of the stamp could leave it as it was: a stamp is
// trusted only once its times are older than settleAfter, as git treats
// "racily clean" index entries.

// settleAfter is how old a stamp's times must be to be trusted: far more
// than a file system's clock tick.
const settleAfter = 2 * time.Second

// maxWithBranches bounds the repositories remembered; past it, the
// memory starts again empty.
const maxWithBranches = 1 << 16

type refsStamp struct {
	headsNS                         int64
	packedIno, packedSize, packedNS int64
}

type branchMemo struct {
	mu sync.Mutex
	m  map[string]refsStamp
}

var withBranches = &branchMemo{m: map[string]refsStamp{}}

func (b *branchMemo) has(dir string, s refsStamp) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	got, ok := b.m[dir]
	return ok && got == s
}

func (b *branchMemo) add(dir string, s refsStamp) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.m) >= maxWithBranches {
		clear(b.m)
	}
	b.m[dir] = s
}

// branchStamp is the state of dir's branch files, and whether it is
// settled (old enough to be trusted). A repository without refs/heads is
// never settled.
func branchStamp(dir string) (refsStamp, bool) {
	heads, err := os.Stat(filepath.Join(dir, "refs", "heads"))
	if err != nil {
		return refsStamp{}, false
	}
	s := refsStamp{headsNS: heads.ModTime().UnixNano()}
	packed, err := os.Stat(filepath.Join(dir, "packed-refs"))
	switch {
	case err == nil:
		s.packedSize, s.packedNS = packed.Size(), packed.ModTime().UnixNano()
		if st, ok := packed.Sys().(*syscall.Stat_t); ok {
			s.packedIno = int64(st.Ino)
		}
	case !os.IsNotExist(err):
		return refsStamp{}, false
	}
	return s, time.Now().UnixNano()-max(s.headsNS, s.packedNS) > int64(settleAfter)
}
