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

	"github.com/dforge/dforge/internal/chain/tx"
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

// TestOpenAPIListsEveryTxType holds POST /api/v1/chain/txs to the tx
// package's registry: a client generated from the document must be able
// to build every transaction type the chain accepts, with the members the
// wallet signs, in signing order.
func TestOpenAPIListsEveryTxType(t *testing.T) {
	var d struct {
		Paths      map[string]map[string]any `json:"paths"`
		Components struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(generateOpenAPI(t).JSON, &d); err != nil {
		t.Fatal(err)
	}
	// resolve follows a $ref to its component.
	resolve := func(s any) map[string]any {
		m, _ := s.(map[string]any)
		if ref, ok := m["$ref"].(string); ok {
			m, _ = d.Components.Schemas[strings.TrimPrefix(ref, "#/components/schemas/")].(map[string]any)
		}
		return m
	}
	dig := func(v any, keys ...string) any {
		for _, k := range keys {
			m, _ := v.(map[string]any)
			v = m[k]
		}
		return v
	}
	body := resolve(dig(d.Paths["/api/v1/chain/txs"]["post"], "requestBody", "content", "application/json", "schema"))
	variants, _ := body["oneOf"].([]any)
	listed := map[string][]any{} // type: the message's required members
	for _, v := range variants {
		env := resolve(v)
		enum, _ := dig(env, "properties", "type", "enum").([]any)
		if len(enum) != 1 {
			t.Fatalf("an envelope variant without its one type: %v", env)
		}
		msg := resolve(dig(env, "properties", "message"))
		listed[enum[0].(string)], _ = msg["required"].([]any)
		if msg["additionalProperties"] != false {
			t.Errorf("%s: the message allows other fields, which the chain refuses", enum[0])
		}
	}
	types := tx.Types()
	for _, kind := range tx.Kinds() {
		members, ok := listed[string(kind)]
		if !ok {
			t.Errorf("POST /api/v1/chain/txs does not list the %s transaction", kind)
			continue
		}
		var want []any
		for _, m := range types[string(kind)] {
			want = append(want, m.Name)
		}
		if fmt.Sprint(members) != fmt.Sprint(want) {
			t.Errorf("%s: the document's message has %v, the chain signs %v", kind, members, want)
		}
	}
	if len(listed) != len(tx.Kinds()) {
		t.Errorf("the document lists %d transaction types, the chain has %d", len(listed), len(tx.Kinds()))
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

// anonymousOperations lists the operations whose security allows no
// credentials: the empty requirement, or none at all.
func anonymousOperations(doc []byte) map[string]bool {
	var d struct {
		Paths map[string]map[string]struct {
			Security []map[string]any `json:"security"`
		} `json:"paths"`
	}
	json.Unmarshal(doc, &d)
	out := map[string]bool{}
	for p, item := range d.Paths {
		for m, op := range item {
			anonymous := len(op.Security) == 0
			for _, req := range op.Security {
				anonymous = anonymous || len(req) == 0
			}
			out[strings.ToUpper(m)+" "+p] = anonymous
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
//
// An operation the document lets anyone call must not turn an anonymous
// caller away for want of sign-in (401 unauthenticated).
func TestOpenAPIRoutesExist(t *testing.T) {
	doc := generateOpenAPI(t).JSON
	ops := operations(doc)
	public := anonymousOperations(doc)
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
		var e struct{ Message, Code string }
		json.Unmarshal(res.Body, &e)
		if res.Status == http.StatusUnauthorized && e.Code == "unauthenticated" && public[key] {
			t.Errorf("%s: the document lets anyone call it, but it answers %s to an anonymous caller", key, res.Body)
		}
		if res.Status != http.StatusNotFound {
			continue
		}
		if e.Code == "not_found" && e.Message == "no such API endpoint" {
			t.Errorf("%s (as %s %s): answered the API's catch-all 404, so no handler serves it", key, method, url)
		}
	}
}
