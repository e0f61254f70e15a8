package cli

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/dforge/dforge/internal/gitserver"
)

// hook is `dforge hook pre-receive`: git runs it inside a
// push the node's git server started, and it hands the push's ref updates
// to the node (gitserver.RunHook). An error rejects the push; main prints
// it, and git shows it to the pusher as "remote: dforge: ...".
func hook(ctx context.Context, args []string, stderr io.Writer) error {
	if len(args) != 1 {
		return fmt.Errorf("usage: dforge hook pre-receive (run by git, not by hand)")
	}
	return gitserver.RunHook(ctx, args[0], os.Stdin, stderr)
}
