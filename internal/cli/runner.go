package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/sirupsen/logrus"

	"github.com/dforge/dforge/internal/runner"
)

const runnerUsage = `usage: dforge runner <command> [flags]

commands:
  register  register with a forge and keep the registration in ./.runner:
            dforge runner register --url URL --token T [--name N] [--labels L,...]
  run       fetch and run the forge's CI jobs: dforge runner run [--capacity N] [--workdir D]

A label is name:scheme[:arg]: self-hosted:host runs jobs on this machine as this
user, with no isolation; ubuntu-latest:docker://node:20 runs them in Docker.`

// runnerCmd runs CI jobs for a forge, in a process of its own (never inside a node).
func runnerCmd(ctx context.Context, args []string, out io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("runner: missing command\n%s", runnerUsage)
	}
	switch args[0] {
	case "register":
		return runnerRegister(ctx, args[1:], out)
	case "run":
		return runnerRun(ctx, args[1:])
	case "help", "-h", "--help":
		fmt.Fprintln(out, runnerUsage)
		return nil
	default:
		return fmt.Errorf("runner: unknown command %q\n%s", args[0], runnerUsage)
	}
}

func runnerRegister(ctx context.Context, args []string, out io.Writer) error {
	fl := flag.NewFlagSet("runner register", flag.ContinueOnError)
	url := fl.String("url", "", "the forge's address, e.g. https://forge.example")
	token := fl.String("token", "", "a runner registration token from the forge")
	name := fl.String("name", "", "the runner's name (default: the host name)")
	labels := fl.String("labels", "", "comma-separated labels, name:scheme[:arg] (e.g. self-hosted:host)")
	if help, err := parseFlags(fl, args); help || err != nil {
		return err
	}
	if *url == "" || *token == "" {
		return errors.New("runner register: --url and --token are required")
	}
	var ls []string
	for _, l := range strings.Split(*labels, ",") {
		if l = strings.TrimSpace(l); l != "" {
			ls = append(ls, l)
		}
	}
	if len(ls) == 0 {
		return errors.New("runner register: --labels is required (e.g. self-hosted:host or ubuntu-latest:docker://node:20)")
	}
	reg, err := runner.Register(ctx, *url, *token, *name, ls, runnerVersion())
	if err != nil {
		return fmt.Errorf("runner register: %w", err)
	}
	if err := reg.Save(runner.RegistrationFile); err != nil {
		return fmt.Errorf("runner register: %w", err)
	}
	fmt.Fprintf(out, "registered runner %s (id %d) at %s; registration in %s\n", reg.Name, reg.ID, reg.Address, runner.RegistrationFile)
	return nil
}

func runnerRun(ctx context.Context, args []string) error {
	fl := flag.NewFlagSet("runner run", flag.ContinueOnError)
	capacity := fl.Int("capacity", 1, "how many jobs run at once")
	workdir := fl.String("workdir", ".runner-work", "where each job's files live while it runs")
	if help, err := parseFlags(fl, args); help || err != nil {
		return err
	}
	if *capacity < 1 {
		return errors.New("runner run: --capacity must be at least 1")
	}
	reg, err := runner.LoadRegistration(runner.RegistrationFile)
	if err != nil {
		return fmt.Errorf("runner run: %w", err)
	}
	// act logs its own progress through logrus' standard logger; the jobs'
	// logs go to the forge, so only act's warnings belong on stderr.
	logrus.SetLevel(logrus.WarnLevel)
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	return runner.Run(ctx, reg, runner.Options{
		Capacity: *capacity,
		Workdir:  *workdir,
		Version:  runnerVersion(),
		Log:      log,
	})
}

func runnerVersion() string { return "dforge-runner " + Version }
