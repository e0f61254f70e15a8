// Package cli parses the dforge command line and runs its subcommands.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

// Version is set at build time with -ldflags "-X ...cli.Version=...".
var Version = "1.0.0-dev"

const usage = `usage: dforge <command> [flags]

commands:
  serve     run a node (web app, API, chain) until interrupted
  init      create a data dir: dforge init --data DIR --alloc ADDRESS=AMOUNT ...
  testnet   write N validators' node dirs for one host: dforge testnet --validators N --out DIR
  reindex   rebuild the SQL projection of a stopped node's chain: dforge reindex --data DIR [--db DSN]
  join      make a node for a running network and serve it: dforge join --peer URL --data DIR [-- serve flags]
  verify    re-check every forge action of a stopped node's chain against the delegations in force at its height: dforge verify --data DIR
  hook      run by git inside a push: dforge hook pre-receive
  runner    run CI jobs for a forge, in a process of its own: dforge runner register|run (see 'dforge runner help')
  version   print the version

Run 'dforge serve -h' for the serve flags (serve --home DIR/nodeK runs a testnet node).`

// Run executes the subcommand named by args[0].
func Run(ctx context.Context, args []string, out io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("missing command\n%s", usage)
	}
	switch args[0] {
	case "serve":
		return serve(ctx, args[1:], out)
	case "init":
		return initData(args[1:], out)
	case "testnet":
		return testnet(args[1:], out)
	case "reindex":
		return reindex(ctx, args[1:], out)
	case "verify":
		return verify(ctx, args[1:], out)
	case "join":
		return join(ctx, args[1:], out)
	case "hook":
		return hook(ctx, args[1:], os.Stderr)
	case "runner":
		return runnerCmd(ctx, args[1:], out)
	case "version", "--version", "-v":
		fmt.Fprintln(out, Version)
		return nil
	case "help", "-h", "--help":
		fmt.Fprintln(out, usage)
		return nil
	default:
		return fmt.Errorf("unknown command %q\n%s", args[0], usage)
	}
}

// parseFlags parses a subcommand's args into fl, which takes no
// positional arguments; help says -h was asked for, and printed.
func parseFlags(fl *flag.FlagSet, args []string) (help bool, err error) {
	err = fl.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		return true, nil
	} else if err != nil {
		return false, err
	}
	if fl.NArg() > 0 {
		return false, fmt.Errorf("%s: unexpected argument %q", fl.Name(), fl.Arg(0))
	}
	return false, nil
}
