package gitstore

import (
	"fmt"
	"os"
	"path/filepath"
)

// PreReceive is the hook the node handles. (post-receive was one too,
// before ref updates went on chain ahead of git; Open removes it.)
const PreReceive = "pre-receive"

// The hooks run the node's own binary, named by the git server in the
// environment of the receive-pack it starts (with the URL and one-time
// token of that push), so a moved or upgraded binary needs no rewrite. A
// push that did not come through the git server has no token: pre-receive
// refuses it, since nobody checked who pushes.
const hookScript = `#!/bin/sh
# Written by dForge: hands the push to the node (dforge hook %[1]s).
if [ -z "$DFORGE_HOOK_BIN" ] || [ -z "$DFORGE_HOOK_TOKEN" ]; then
	echo "dForge: pushes go through the node's git server" >&2
	exit %[2]d
fi
exec "$DFORGE_HOOK_BIN" hook %[1]s
`

func writeHooks(dir string) error {
	if err := os.Remove(filepath.Join(dir, "post-receive")); err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("remove the old post-receive hook: %w", err)
	}
	for _, h := range []struct {
		name string
		exit int
	}{{PreReceive, 1}} {
		path := filepath.Join(dir, h.name)
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, fmt.Appendf(nil, hookScript, h.name, h.exit), 0o755); err != nil {
			return fmt.Errorf("write %s hook: %w", h.name, err)
		}
		// WriteFile keeps an existing file's mode; the hook must be executable.
		if err := os.Chmod(tmp, 0o755); err != nil {
			return fmt.Errorf("write %s hook: %w", h.name, err)
		}
		if err := os.Rename(tmp, path); err != nil {
			return fmt.Errorf("install %s hook: %w", h.name, err)
		}
	}
	return nil
}
