package cli

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// homeSettingsFile is the file in a node directory that `serve --home` reads:
// KEY=VALUE lines with the DFORGE_* names of the serve flags, so the same
// names work as environment variables and as stored settings.
const homeSettingsFile = "dforge.env"

// homeSettingFlags maps each key the file may hold to the serve flag it sets.
// The RPC and P2P addresses normally live in the chain's config.toml only.
var homeSettingFlags = map[string]string{
	"DFORGE_ADDR":     "addr",
	"DFORGE_DB":       "db",
	"DFORGE_RPC_ADDR": "rpc-addr",
	"DFORGE_P2P_ADDR": "p2p-addr",
	"DFORGE_SSH_ADDR": "ssh-addr",
	// The IPFS (libp2p) listen address, which the node registry names.
	"DFORGE_P2P_LISTEN": "p2p-listen",
	// The node's team, shown on its home page.
	"DFORGE_MAINTAINERS": "maintainer",
}

// applyHome makes the node directory home the data dir and fills the serve
// flags that neither the command line nor the environment set from its
// dforge.env. Without an explicit RPC or P2P address the chain keeps the
// ones in its config.toml (serve's defaults would override them).
func applyHome(fl *flag.FlagSet, home string) error {
	explicit := map[string]bool{}
	fl.Visit(func(f *flag.Flag) { explicit[f.Name] = true })
	if explicit["data"] {
		return errors.New("serve: --home and --data both name the data dir; give one of them")
	}
	settings, err := readHomeSettings(home)
	if err != nil {
		return err
	}
	if err := fl.Set("data", home); err != nil {
		return err
	}
	for key, name := range homeSettingFlags {
		if explicit[name] || os.Getenv(key) != "" {
			continue
		}
		value, ok := settings[key]
		if !ok && (name == "rpc-addr" || name == "p2p-addr") {
			value, ok = "", true // "" keeps config.toml's address
		}
		if !ok {
			continue
		}
		if err := fl.Set(name, value); err != nil {
			return fmt.Errorf("serve --home: %s: %w", key, err)
		}
	}
	return nil
}

// readHomeSettings reads home's dforge.env; a missing file holds no settings.
// Unknown keys are errors, so a typo is not silently ignored.
func readHomeSettings(home string) (map[string]string, error) {
	path := filepath.Join(home, homeSettingsFile)
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]string{}, nil
	} else if err != nil {
		return nil, fmt.Errorf("read node settings: %w", err)
	}
	defer f.Close()
	settings := map[string]string{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		key, value, ok := strings.Cut(text, "=")
		key = strings.TrimSpace(key)
		if _, known := homeSettingFlags[key]; !ok || !known {
			return nil, fmt.Errorf("%s:%d: want KEY=VALUE with KEY one of %s, got %q", path, line, strings.Join(slices.Sorted(maps.Keys(homeSettingFlags)), ", "), text)
		}
		settings[key] = strings.TrimSpace(value)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return settings, nil
}

// writeHomeSettings writes home's dforge.env with the given KEY=VALUE lines.
func writeHomeSettings(home string, lines ...string) error {
	text := "# Settings for `dforge serve --home <this directory>`.\n" +
		"# Flags and DFORGE_* environment variables override them; the chain's\n" +
		"# RPC and P2P addresses are in chain/comet/config/config.toml.\n" +
		strings.Join(lines, "\n") + "\n"
	if err := os.WriteFile(filepath.Join(home, homeSettingsFile), []byte(text), 0o644); err != nil {
		return fmt.Errorf("write node settings: %w", err)
	}
	return nil
}
