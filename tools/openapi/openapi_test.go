package openapi

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// testdata/fakeapi is a small API written the way internal/api is: routes
// built from constants, sign-in wrappers called directly, through an alias
// and through a closure, a handler factory, a handler writing to a
// discarding ResponseWriter, and the writeJSON/decode helpers.

type doc struct {
	Tags       []map[string]any                     `json:"tags"`
	Paths      map[string]map[string]map[string]any `json:"paths"`
	Components struct {
		Schemas map[string]map[string]any `json:"schemas"`
	} `json:"components"`
}

func generateFake(t *testing.T) (*Result, doc) {
	t.Helper()
	res, err := Generate("testdata/fakeapi")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) > 0 {
		t.Errorf("warnings: %q", res.Warnings)
	}
	var d doc
	if err := json.Unmarshal(res.JSON, &d); err != nil {
		t.Fatal(err)
	}
	return res, d
}

// at digs into decoded JSON: at(v, "a", "b") is v["a"]["b"].
func at(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func TestGenerateFindsEveryRoute(t *testing.T) {
	res, d := generateFake(t)
	want := map[string][]string{
		"/api/v1/things":                   {"get", "post"},
		"/api/v1/things/{id}":              {"get", "delete"},
		"/api/v1/things/{id}/mine":         {"get"},
		"/api/v1/things/{id}/flag":         {"put"},
		"/api/v1/things/{id}/watch":        {"put"},
		"/api/v1/things/{id}/files/{path}": {"get"},
		"/api/v1/things/{id}/tags":         {"delete"},
		"/api/v1/things/{id}/children":     {"get"},
	}
	if res.Operations != 10 || len(d.Paths) != len(want) {
		t.Fatalf("%d operations on %d paths, want 10 on %d (the catch-all left out): %v", res.Operations, len(d.Paths), len(want), d.Paths)
	}
	for p, methods := range want {
		for _, m := range methods {
			if d.Paths[p][m] == nil {
				t.Errorf("no %s %s", m, p)
			}
		}
	}
}

func TestGenerateSecurityFromWrappers(t *testing.T) {
	_, d := generateFake(t)
	cases := []struct{ path, method, scope string }{
		{"/api/v1/things", "get", ""},
		{"/api/v1/things", "post", "write"},             // user := a.signedIn
		{"/api/v1/things/{id}/flag", "put", "admin"},    // a closure over signedIn, around a factory
		{"/api/v1/things/{id}/tags", "delete", "admin"}, // the same closure
		{"/api/v1/things/{id}/files/{path}", "get", ""}, // a.read, no sign-in
		{"/api/v1/things/{id}", "delete", "write"},      // requireUser in the handler, before it answers; a write
		{"/api/v1/things/{id}/mine", "get", ""},         // requireUser only to see who asks
	}
	for _, c := range cases {
		op := d.Paths[c.path][c.method]
		scope, _ := op["x-dforge-scope"].(string)
		if scope != c.scope {
			t.Errorf("%s %s: scope %q, want %q", c.method, c.path, scope, c.scope)
		}
		// Every operation says how it is called: a public one may be
		// called anonymously (the empty requirement), one needing sign-in
		// may not.
		reqs, _ := op["security"].([]any)
		anonymous := len(reqs) > 0 && reflect.DeepEqual(reqs[0], map[string]any{})
		if len(reqs) == 0 || anonymous != (c.scope == "") {
			t.Errorf("%s %s: security %v", c.method, c.path, op["security"])
		}
	}
	if got := at(d.Paths["/api/v1/things"]["post"], "security"); !reflect.DeepEqual(got, []any{
		map[string]any{"SessionCookie": []any{}, "CSRFToken": []any{}}, map[string]any{"AuthorizationHeaderToken": []any{}}, map[string]any{"BasicAuth": []any{}},
	}) {
		t.Errorf("a write's security: %v", got)
	}
	if got := at(d.Paths["/api/v1/things"]["get"], "security"); !reflect.DeepEqual(got, []any{
		map[string]any{}, map[string]any{"SessionCookie": []any{}}, map[string]any{"AuthorizationHeaderToken": []any{}}, map[string]any{"BasicAuth": []any{}},
	}) {
		t.Errorf("a public read's security: %v", got)
	}
}

func TestGenerateParametersAndBodies(t *testing.T) {
	_, d := generateFake(t)
	list := d.Paths["/api/v1/things"]["get"]
	if got := at(list, "parameters"); !reflect.DeepEqual(got, []any{map[string]any{"name": "limit", "in": "query", "schema": map[string]any{"type": "integer"}}}) {
		t.Errorf("list parameters: %v", got)
	}
	if got := at(list, "responses", "200", "content", "application/json", "schema", "items", "$ref"); got != "#/components/schemas/Thing" {
		t.Errorf("list answer: %v", got)
	}
	if at(list, "responses", "200", "headers", "X-Total-Count") == nil {
		t.Errorf("list headers: %v", at(list, "responses", "200"))
	}
	// A list encoded before (EncodedJSON[[]Thing]) is documented as the list.
	children := d.Paths["/api/v1/things/{id}/children"]["get"]
	if got := at(children, "responses", "200", "content", "application/json", "schema", "items", "$ref"); got != "#/components/schemas/Thing" {
		t.Errorf("encoded list answer: %v", at(children, "responses", "200", "content"))
	}
	get := d.Paths["/api/v1/things/{id}"]["get"]
	if at(get, "summary") != "Answers one thing." || at(get, "description") != "It is found by id." {
		t.Errorf("summary %q, description %q", at(get, "summary"), at(get, "description"))
	}
	if got := at(get, "responses", "200", "content", "application/json", "schema", "$ref"); got != "#/components/schemas/Thing" {
		t.Errorf("respond(w, r, t, err) answers %v", got)
	}
	create := d.Paths["/api/v1/things"]["post"]
	if got := at(create, "requestBody", "content", "application/json", "schema", "properties", "name", "type"); got != "string" {
		t.Errorf("request body: %v", at(create, "requestBody"))
	}
	if got := at(create, "responses", "201", "content", "application/json", "schema", "properties", "ok", "type"); got != "boolean" {
		t.Errorf("map literal answer: %v", at(create, "responses"))
	}
	files := d.Paths["/api/v1/things/{id}/files/{path}"]["get"]
	if at(files, "responses", "200", "content", "text/plain") == nil || at(files, "description") != "The file's path may have slashes." {
		t.Errorf("raw file: %v", files)
	}
	params, _ := at(files, "parameters").([]any)
	if len(params) != 3 || at(params[1], "name") != "path" || at(params[2], "name") != "download" {
		t.Errorf("file parameters: %v", params)
	}
	// The factory's constant arguments decide its branches.
	flag, watch := d.Paths["/api/v1/things/{id}/flag"]["put"], d.Paths["/api/v1/things/{id}/watch"]["put"]
	if at(flag, "responses", "204") == nil || at(flag, "responses", "200") != nil {
		t.Errorf("flag answers %v", at(flag, "responses"))
	}
	if at(watch, "responses", "200", "content") == nil || at(flag, "summary") != "Sets a flag on the thing for the signed-in user (thing.flag)." {
		t.Errorf("watch answers %v; flag summary %q", at(watch, "responses"), at(flag, "summary"))
	}
	// What a handler writes to a discarding writer is not its answer, and
	// a branch its constant argument rules out reads no body.
	clear := d.Paths["/api/v1/things/{id}/tags"]["delete"]
	if at(clear, "responses", "200") != nil || at(clear, "requestBody") != nil || at(clear, "responses", "204") == nil {
		t.Errorf("clear tags: %v", clear)
	}
}

func TestGenerateSchemas(t *testing.T) {
	_, d := generateFake(t)
	thing := d.Components.Schemas["Thing"]
	want := map[string]any{
		"id":      map[string]any{"type": "integer", "format": "int64"},
		"name":    map[string]any{"type": "string"},
		"created": map[string]any{"type": "string", "format": "date-time"},
		"parent":  map[string]any{"type": "object", "allOf": []any{map[string]any{"$ref": "#/components/schemas/Thing"}}, "nullable": true},
		"count":   map[string]any{"type": "string"}, // ,string
		"tags":    map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
		"Note":    map[string]any{"type": "string", "description": "A remark."},
		"owner":   map[string]any{"$ref": "#/components/schemas/auth.Owner"},
	}
	if got := thing["properties"]; !reflect.DeepEqual(got, any(want)) {
		b, _ := json.MarshalIndent(got, "", " ")
		t.Errorf("Thing's properties:\n%s", b)
	}
	if thing["description"] != "A stored thing." {
		t.Errorf("Thing's description: %v", thing["description"])
	}
	// An alias is documented under its own name, with its own comment.
	owner, ok := d.Components.Schemas["auth.Owner"]
	if _, dup := d.Components.Schemas["auth.Identity"]; !ok || dup ||
		!reflect.DeepEqual(owner["properties"], any(map[string]any{"Name": map[string]any{"type": "string"}})) ||
		owner["description"] != "The user a thing belongs to: an alias keeps its own name in the document." {
		t.Errorf("auth.Owner: %v (auth.Identity too: %v)", owner, dup)
	}
}

func TestGenerateTagsFromTheAPIPackage(t *testing.T) {
	_, d := generateFake(t)
	if want := []map[string]any{{"name": "things", "description": "Things and their files."}}; !reflect.DeepEqual(d.Tags, want) {
		t.Errorf("tags %v, want %v (from OpenAPITags)", d.Tags, want)
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	a, _ := generateFake(t)
	b, _ := generateFake(t)
	if !bytes.Equal(a.JSON, b.JSON) {
		t.Fatal("two runs differ")
	}
}

func TestHumanizeAndSentences(t *testing.T) {
	for in, want := range map[string]string{"getRepoByID": "Get repo by ID", "postSIWE": "Post SIWE", "listIssues": "List issues", "getFAQ": "Get FAQ"} {
		if got := humanize(in); got != want {
			t.Errorf("humanize(%q) = %q, want %q", in, got, want)
		}
	}
	if got := cleanDoc("getBlob is Gitea's GitBlobResponse: a blob\nby id.", "getBlob"); got != "Gitea's GitBlobResponse: a blob by id." {
		t.Errorf("cleanDoc: %q", got)
	}
	s, rest := firstSentence("Streams a file (raw and media alike: e.g. README.md). With headers.")
	if s != "Streams a file (raw and media alike: e.g. README.md)." || rest != "With headers." {
		t.Errorf("firstSentence: %q, %q", s, rest)
	}
}

// testdata/splitapi is split as internal/api is: the generator starts at
// Register in its routes subpackage and follows the calls into the base
// and into a resource package whose Handler embeds *splitapi.API; a shape
// declared in a resource package is named as one of the base's.
func TestGenerateFollowsTheAPIsSubpackages(t *testing.T) {
	res, err := Generate("testdata/splitapi")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) > 0 {
		t.Errorf("warnings: %q", res.Warnings)
	}
	var d doc
	if err := json.Unmarshal(res.JSON, &d); err != nil {
		t.Fatal(err)
	}
	if got := d.Paths["/api/v1/ping"]["get"]["operationId"]; got != "ping" {
		t.Errorf("the base's route: operationId %v, want ping", got)
	}
	if got := d.Paths["/api/v1/widgets/{id}"]["get"]["operationId"]; got != "getWidget" {
		t.Errorf("the resource package's route: operationId %v, want getWidget", got)
	}
	if _, ok := d.Components.Schemas["Widget"]; !ok {
		t.Errorf("no Widget schema among %v", reflect.ValueOf(d.Components.Schemas).MapKeys())
	}
}

// A shape kept outside the API (testdata/splitshapes, as Gitea's shapes
// are in internal/gitea/structs) goes by the name of the API's alias of
// it, also where another such shape holds it: the aliases keep the
// schema names the shapes had in the API.
func TestGenerateNamesSharedShapesAfterTheAPIsAliases(t *testing.T) {
	res, err := Generate("testdata/splitapi")
	if err != nil {
		t.Fatal(err)
	}
	var d doc
	if err := json.Unmarshal(res.JSON, &d); err != nil {
		t.Fatal(err)
	}
	for name := range d.Components.Schemas {
		if strings.HasPrefix(name, "splitshapes.") {
			t.Errorf("schema %s named after the shapes' package, not the API's alias", name)
		}
	}
	gadget := d.Components.Schemas["Gadget"]
	if gadget == nil || gadget["description"] != "A gadget, in the shape kept outside the API." {
		t.Fatalf("Gadget schema: %v", gadget)
	}
	if got := at(gadget, "properties", "part", "$ref"); got != "#/components/schemas/Part" {
		t.Errorf("Gadget.part: %v, want a $ref to Part", at(gadget, "properties", "part"))
	}
	if got := at(gadget, "properties", "spare", "allOf"); got == nil {
		t.Errorf("Gadget.spare: %v, want the documented Part", at(gadget, "properties", "spare"))
	}
	if got := at(d.Components.Schemas["Part"], "description"); got != "A gadget's part." {
		t.Errorf("Part's description %v, want the alias's", got)
	}
}
