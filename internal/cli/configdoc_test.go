package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestEveryServeFlagIsDocumented: the configuration page says it lists
// every setting of the node, so each flag `dforge serve -h` prints must
// have its row there (three had none: --ssh-addr, --webhook-allow-private
// and --pprof-addr).
func TestEveryServeFlagIsDocumented(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "serve", "-h")
	cmd.Env = append(withoutDForgeEnv(os.Environ()), childEnv+"=1")
	help, _ := cmd.CombinedOutput() // -h exits non-zero, as flag's help does
	flags := regexp.MustCompile(`(?m)^  -([a-z0-9-]+)`).FindAllStringSubmatch(string(help), -1)
	if len(flags) < 10 {
		t.Fatalf("serve -h lists %d flags:\n%s", len(flags), help)
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "content", "docs", "configuration.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range flags {
		if !strings.Contains(string(doc), "`--"+f[1]+"`") {
			t.Errorf("content/docs/configuration.md has no row for --%s", f[1])
		}
	}
}
