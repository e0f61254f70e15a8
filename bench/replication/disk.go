package main

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// nodeDisk is what a node's public git objects take on disk, as du counts
// it (allocated blocks): git's bare repositories and the blockstore.
type nodeDisk struct {
	name        string
	git, blocks int64
}

// disk measures each node's data directory once its block queue is empty
// (the pushes' background jobs done), waiting at most two minutes.
func (n *testnet) disk(ctx context.Context, out io.Writer) []nodeDisk {
	var res []nodeDisk
	for i := range n.nodes {
		home := n.home(i)
		if _, err := os.Stat(filepath.Join(home, "blocks")); err != nil {
			continue
		}
		for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); {
			jobs, _ := filepath.Glob(filepath.Join(home, "blocks", ".queue", "*.json"))
			if len(jobs) == 0 || sleep(ctx, time.Second) != nil {
				break
			}
		}
		d := nodeDisk{name: fmt.Sprintf("node%d", i), git: du(filepath.Join(home, "git")), blocks: du(filepath.Join(home, "blocks"))}
		fmt.Fprintf(out, "  %s: git %s, blockstore %s\n", d.name, mib(d.git), mib(d.blocks))
		res = append(res, d)
	}
	return res
}

// du is the disk space the files under dir take, in bytes (st_blocks, as
// du counts: a small file takes a whole filesystem block).
func du(dir string) int64 {
	var total int64
	filepath.WalkDir(dir, func(_ string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if info, err := e.Info(); err == nil {
			if st, ok := info.Sys().(*syscall.Stat_t); ok {
				total += st.Blocks * 512
			}
		}
		return nil
	})
	return total
}
