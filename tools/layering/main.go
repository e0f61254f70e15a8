// Command layering fails when a lower layer of the node imports an upper
// one: the chain, the forge service, the index, the git store and Gitea's
// shapes and their converters (internal/gitea, which the API and the
// webhooks share) must not reach, directly or through any other package,
// the HTTP API, the web app's handler, the git server or the command line. Test files are not counted
// (a test may start a whole node).
//
//	go run ./tools/layering
//
// `make lint-go` runs it. The go command already refuses import cycles; this
// keeps the imports pointing one way. It reads the graph from
// `go list -deps`, so it needs nothing but the go command.
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
)

// lower are the packages (go list patterns, from the module root) that must
// not reach upper.
var lower = []string{
	"./internal/chain/...",
	"./internal/forge/...",
	"./internal/index/...",
	"./internal/gitstore/...",
	"./internal/gitea/...",
}

// upper are the packages, and the trees under them, that lower must not
// import (module-relative).
var upper = []string{
	"internal/api",
	"internal/web",
	"internal/gitserver",
	"internal/cli",
}

func main() {
	root, err := goCmd("", "list", "-m", "-f", "{{.Path}} {{.Dir}}")
	if err != nil {
		fail(err)
	}
	modPath, dir, _ := strings.Cut(strings.TrimSpace(root), " ")

	// Every package lower reaches, with its own (non-test) imports; roots
	// are the packages the patterns name.
	out, err := goCmd(dir, append([]string{"list", "-deps", "-f",
		"{{if not .Standard}}{{if .DepOnly}}dep{{else}}root{{end}} {{.ImportPath}}{{range .Imports}} {{.}}{{end}}{{end}}"}, lower...)...)
	if err != nil {
		fail(err)
	}
	imports := map[string][]string{}
	var roots []string
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 {
			continue
		}
		imports[f[1]] = f[2:]
		if f[0] == "root" {
			roots = append(roots, f[1])
		}
	}
	if len(roots) == 0 {
		fail(fmt.Errorf("no packages match %s", strings.Join(lower, " ")))
	}

	rel := func(p string) string { return strings.TrimPrefix(strings.TrimPrefix(p, modPath), "/") }
	isUpper := func(p string) bool {
		if p != modPath && !strings.HasPrefix(p, modPath+"/") {
			return false
		}
		r := rel(p)
		for _, u := range upper {
			if r == u || strings.HasPrefix(r, u+"/") {
				return true
			}
		}
		return false
	}

	// An offending import is an edge from a package lower reaches into an
	// upper one; for each, the roots that reach it and one chain from a root.
	type edge struct{ from, to string }
	reachedBy := map[edge][]string{}
	chain := map[edge][]string{}
	for _, r := range roots {
		prev := map[string]string{r: ""}
		queue := []string{r}
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			for _, q := range imports[p] {
				if isUpper(q) {
					e := edge{p, q}
					reachedBy[e] = append(reachedBy[e], r)
					if _, ok := chain[e]; !ok {
						var c []string
						for x := p; x != ""; x = prev[x] {
							c = append([]string{rel(x)}, c...)
						}
						chain[e] = append(c, rel(q))
					}
					continue
				}
				if _, seen := prev[q]; !seen {
					if _, known := imports[q]; known {
						prev[q] = p
						queue = append(queue, q)
					}
				}
			}
		}
	}
	if len(reachedBy) == 0 {
		fmt.Printf("layering: %d packages under %s import none of %s\n",
			len(roots), strings.Join(lower, " "), strings.Join(upper, " "))
		return
	}
	edges := make([]edge, 0, len(reachedBy))
	for e := range reachedBy {
		edges = append(edges, e)
	}
	sort.Slice(edges, func(i, j int) bool {
		if edges[i].from != edges[j].from {
			return edges[i].from < edges[j].from
		}
		return edges[i].to < edges[j].to
	})
	for _, e := range edges {
		rs := reachedBy[e]
		for i := range rs {
			rs[i] = rel(rs[i])
		}
		sort.Strings(rs)
		fmt.Fprintf(os.Stderr, "layering: %s imports %s, an upper layer\n    reached from %s\n    e.g. %s\n",
			rel(e.from), rel(e.to), strings.Join(rs, ", "), strings.Join(chain[e], " -> "))
	}
	fmt.Fprintf(os.Stderr, "layering: %d import(s) point upward: %s must not reach %s\n",
		len(edges), strings.Join(lower, " "), strings.Join(upper, " "))
	os.Exit(1)
}

// goCmd runs the go command ($GO when set, as the Makefile sets it).
func goCmd(dir string, args ...string) (string, error) {
	goBin := os.Getenv("GO")
	if goBin == "" {
		goBin = "go"
	}
	cmd := exec.Command(goBin, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out), nil
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "layering:", err)
	os.Exit(2)
}
