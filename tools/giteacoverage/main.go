// Command giteacoverage says how much of Gitea's API dForge serves: it
// compares Gitea 1.22.0's operations (gitea-1.22-operations.txt, committed
// beside it because CI has no network) with the operations in dForge's
// OpenAPI document, and prints covered/total and, per tag, what is missing.
//
//	go run ./tools/giteacoverage [-spec web/public/openapi.json] [-min 0]
//
// `make api-coverage` runs it. Operations a node has no use for are left out
// of the total: the site admin's, ActivityPub's, packages' and Actions'.
// Path parameters are compared by position, not name ({index} and {number}
// are the same operation).
package main

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
)

//go:embed gitea-1.22-operations.txt
var giteaOperations string

// excluded are the path prefixes whose operations dForge does not aim to
// serve: administration of a central site, federation, package registries
// and CI.
var excluded = []*regexp.Regexp{
	regexp.MustCompile(`^/admin(/|$)`),
	regexp.MustCompile(`^/activitypub(/|$)`),
	regexp.MustCompile(`^/packages(/|$)`),
	regexp.MustCompile(`^/repos/\{\}/\{\}/actions(/|$)`),
	regexp.MustCompile(`^/orgs/\{\}/actions(/|$)`),
	regexp.MustCompile(`^/user/actions(/|$)`),
}

// operation is one method on one path, the path's parameters unnamed.
type operation struct {
	tag, method, path string
	shown             string // the path as Gitea names it
}

func (o operation) key() string { return o.method + " " + o.path }

var param = regexp.MustCompile(`\{[^}]*\}`)

// normalize unnames the path parameters and drops dForge's /api/v1 prefix.
func normalize(path string) string {
	return param.ReplaceAllString(strings.TrimPrefix(path, "/api/v1"), "{}")
}

func main() {
	spec := flag.String("spec", "web/public/openapi.json", "dForge's OpenAPI document")
	min := flag.Int("min", 0, "fail when fewer than this percentage of Gitea's operations are covered")
	flag.Parse()
	gitea, err := parseGitea(strings.NewReader(giteaOperations))
	if err != nil {
		fail(fmt.Errorf("read Gitea's operations: %w", err))
	}
	f, err := os.Open(*spec)
	if err != nil {
		fail(fmt.Errorf("open dForge's OpenAPI document: %w", err))
	}
	defer f.Close()
	ours, err := parseOpenAPI(f)
	if err != nil {
		fail(fmt.Errorf("read %s: %w", *spec, err))
	}
	covered, missing := compare(gitea, ours)
	pct := percent(covered, len(gitea))
	report(os.Stdout, covered, len(gitea), missing)
	if pct < *min {
		fail(fmt.Errorf("%d%% of Gitea's operations covered, want at least %d%%", pct, *min))
	}
}

// parseGitea reads "tag METHOD /path" lines, leaving out the excluded ones.
func parseGitea(r io.Reader) ([]operation, error) {
	var ops []operation
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Fields(text)
		if len(fields) != 3 {
			return nil, fmt.Errorf("line %d: want tag, method and path: %q", line, text)
		}
		op := operation{tag: fields[0], method: strings.ToUpper(fields[1]), path: normalize(fields[2]), shown: fields[2]}
		if !isExcluded(op.path) {
			ops = append(ops, op)
		}
	}
	return ops, sc.Err()
}

func isExcluded(path string) bool {
	for _, re := range excluded {
		if re.MatchString(path) {
			return true
		}
	}
	return false
}

// parseOpenAPI returns the set of "METHOD /path" keys an OpenAPI document
// lists.
func parseOpenAPI(r io.Reader) (map[string]bool, error) {
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	ops := map[string]bool{}
	for path, methods := range doc.Paths {
		for method := range methods {
			switch m := strings.ToUpper(method); m {
			case "GET", "PUT", "POST", "PATCH", "DELETE", "HEAD":
				ops[operation{method: m, path: normalize(path)}.key()] = true
			}
		}
	}
	return ops, nil
}

// compare counts Gitea's operations dForge serves and groups the others by
// tag.
func compare(gitea []operation, ours map[string]bool) (int, map[string][]operation) {
	covered, missing := 0, map[string][]operation{}
	for _, op := range gitea {
		if ours[op.key()] {
			covered++
			continue
		}
		missing[op.tag] = append(missing[op.tag], op)
	}
	return covered, missing
}

func percent(n, total int) int {
	if total == 0 {
		return 100
	}
	return n * 100 / total
}

func report(w io.Writer, covered, total int, missing map[string][]operation) {
	fmt.Fprintf(w, "Gitea 1.22 API operations served by dForge: %d/%d (%d%%)\n", covered, total, percent(covered, total))
	tags := make([]string, 0, len(missing))
	for tag := range missing {
		tags = append(tags, tag)
	}
	sort.Strings(tags)
	for _, tag := range tags {
		fmt.Fprintf(w, "\n%s: %d missing\n", tag, len(missing[tag]))
		for _, op := range missing[tag] {
			fmt.Fprintf(w, "  %-6s %s\n", op.method, op.shown)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "giteacoverage:", err)
	os.Exit(1)
}
