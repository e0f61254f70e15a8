package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
	"github.com/dforge/dforge/tools/openapi"
)

// The OpenAPI document shown at /docs/api is generated from this package's
// source by tools/openapi and checked in as web/public/openapi.json,
// which the node serves at /openapi.json. These tests keep the file in step
// with the code, and check that every operation it lists is a route the
// node serves.

const openapiFile = "../../web/public/openapi.json"

func generateOpenAPI(t *testing.T) *openapi.Result {
	t.Helper()
	res, err := openapi.Generate(".")
	if err != nil {
		t.Fatalf("generate the OpenAPI document: %v", err)
	}
	for _, w := range res.Warnings {
		t.Logf("openapi: %s", w)
	}
	return res
}

func TestOpenAPIDocumentIsCurrent(t *testing.T) {
	res := generateOpenAPI(t)
	have, err := os.ReadFile(openapiFile)
	if err != nil {
		t.Fatalf("read %s: %v\nRun `make openapi` to write it.", openapiFile, err)
	}
	if !bytes.Equal(have, res.JSON) {
		t.Fatalf("web/public/openapi.json is out of date with internal/api: run `make openapi` (and commit the file).\n%s",
			openapiDiff(have, res.JSON))
	}
}

// openapiDiff says how the checked-in document differs from the generated
// one: operations added and removed, then the first differing line.
func openapiDiff(have, want []byte) string {
	var b strings.Builder
	haveOps, wantOps := operations(have), operations(want)
	for _, op := range sortedSet(wantOps) {
		if !haveOps[op] {
			fmt.Fprintf(&b, "  missing from the file: %s\n", op)
		}
	}
	for _, op := range sortedSet(haveOps) {
		if !wantOps[op] {
			fmt.Fprintf(&b, "  in the file, gone from the code: %s\n", op)
		}
	}
	hl, wl := strings.Split(string(have), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < max(len(hl), len(wl)); i++ {
		var h, w string
		if i < len(hl) {
			h = hl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if h != w {
			fmt.Fprintf(&b, "  first difference, line %d:\n    file:      %s\n    generated: %s\n", i+1, strings.TrimSpace(h), strings.TrimSpace(w))
			break
		}
	}
	return b.String()
}

// operations lists a document's operations as "METHOD /path".
func operations(doc []byte) map[string]bool {
	var d struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	json.Unmarshal(doc, &d)
	out := map[string]bool{}
	for p, item := range d.Paths {
		for m := range item {
			out[strings.ToUpper(m)+" "+p] = true
		}
	}
	return out
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// placeholders fill path parameters with values of the right shape; any
// other parameter is "x".
var placeholders = map[string]string{
	"owner": "nobody", "repo": "nothing", "username": "nobody", "collaborator": "nobody", "name": "nobody",
	"index": "1", "id": "1", "height": "1", "slug": "index", "path": "README.md", "ref": "heads/main",
	"branch": "main", "sha": "0123456789abcdef0123456789abcdef01234567",
	"hash":    strings.Repeat("ab", 32),
	"address": "0x" + strings.Repeat("12", 20),
}

var pathParam = regexp.MustCompile(`\{([^}]+)\}`)

// TestOpenAPIRoutesExist calls every operation of the document on a whole
// node, anonymously: each must reach a handler (which may well refuse the
// call), never the API's catch-all "no such API endpoint" 404.
func TestOpenAPIRoutesExist(t *testing.T) {
	ops := operations(generateOpenAPI(t).JSON)
	if len(ops) < 50 {
		t.Fatalf("only %d operations in the document: the generator missed routes", len(ops))
	}
	n := forgetest.Start(t)
	for _, key := range sortedSet(ops) {
		method, p, _ := strings.Cut(key, " ")
		url := pathParam.ReplaceAllStringFunc(p, func(m string) string {
			if v, ok := placeholders[m[1:len(m)-1]]; ok {
				return v
			}
			return "x"
		})
		var body any
		if method == http.MethodPost || method == http.MethodPut || method == http.MethodPatch {
			body = map[string]any{}
		}
		res := n.Call(method, url, nil, body)
		if res.Status != http.StatusNotFound {
			continue
		}
		var e struct{ Message, Code string }
		json.Unmarshal(res.Body, &e)
		if e.Code == "not_found" && e.Message == "no such API endpoint" {
			t.Errorf("%s (as %s %s): answered the API's catch-all 404, so no handler serves it", key, method, url)
		}
	}
}
