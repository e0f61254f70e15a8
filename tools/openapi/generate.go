// Package openapi generates the node's OpenAPI document from the source of
// the API package (internal/api), without running anything: go/parser and
// go/ast only. The one exception is the chain's transaction envelope, whose
// variants come from the tx package's registry itself (txschema.go).
//
// It starts at the Register method of the API's route table (the
// subpackage routes, or the API package itself) and follows every call
// into the API package and its subpackages that is handed the mux,
// methods promoted through an embedded *api.API included, so each mux.HandleFunc("METHOD /path", handler) becomes an
// operation:
//
//   - the summary is the first sentence of the handler's doc comment (its
//     name turned into words when it has none), the description the rest,
//     plus the comment just above the registration;
//   - path parameters come from the pattern ({name}, and {name...} for the
//     rest of the path); query parameters from q.Get("name") and the like
//     in the handler and the package functions it hands the request to;
//   - a handler wrapped by a function that takes an auth.Scope (SignedIn,
//     tokenOwnerOnly), or that calls auth.Require (RequireUser,
//     RequireAdmin) before it could answer, needs sign-in: its operation
//     lists the credentials and x-dforge-scope, the least scope an access
//     token needs; any other lists them beside the empty requirement
//     (anonymous callers welcome);
//   - the request body is the value Decode (json.Unmarshal into a
//     parameter) fills, and each 2xx answer the value WriteJSON (a
//     json.NewEncoder(w).Encode) writes, as JSON schemas made from struct
//     fields and json tags. Named structs of the module become
//     components; time.Time is a date-time string, common.Address a hex
//     string, anything unknown {}.
//
// The output is deterministic (sorted), so it can be checked in:
// web/public/openapi.json, which Vite copies into the app and the node
// serves at /openapi.json. `make openapi` writes it, and a test in
// internal/api fails when it differs from what this package generates.
package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/token"
	"net/http"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// gen holds one generation's state.
type gen struct {
	mod         *module
	root        *pkg
	routes      []*route
	components  map[string]schema
	compNames   map[*typeDecl]string
	compOwner   map[string]*typeDecl
	visiting    map[*typeDecl]bool
	aliases     map[*typeDecl]*typeDecl // a struct of another package to the API's alias of it (apiAlias)
	scanned     map[*pkg]bool           // the API packages aliases has been filled from
	sinks       map[*funcDecl]*sink
	signInPaths map[string]bool // paths the auth middleware serves without credentials
	depth       int
	tf          *file
	errs        []error
	warnings    []string
}

func (g *gen) warn(s string) { g.warnings = append(g.warnings, s) }

// Result is a generated document.
type Result struct {
	JSON       []byte   // the document, indented, with a final newline
	Operations int      // how many operations it has
	Warnings   []string // routes whose handler could not be worked out (they are listed without details)
}

// Generate reads the API package in dir and returns its OpenAPI document.
func Generate(dir string) (*Result, error) {
	mod, err := findModule(dir)
	if err != nil {
		return nil, err
	}
	ip, err := mod.importPathOf(dir)
	if err != nil {
		return nil, err
	}
	root, err := mod.load(ip)
	if err != nil {
		return nil, err
	}
	if root == nil {
		return nil, fmt.Errorf("no Go package in %s", dir)
	}
	g := &gen{mod: mod, root: root, components: map[string]schema{}, compNames: map[*typeDecl]string{},
		compOwner: map[string]*typeDecl{}, visiting: map[*typeDecl]bool{},
		aliases: map[*typeDecl]*typeDecl{}, scanned: map[*pkg]bool{}, sinks: map[*funcDecl]*sink{}}
	_, _, g.signInPaths = g.authNames()
	if err := g.registrations(); err != nil {
		return nil, err
	}
	if len(g.errs) > 0 {
		return nil, g.errs[0]
	}
	doc, n, err := g.document()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return &Result{JSON: buf.Bytes(), Operations: n, Warnings: g.warnings}, nil
}

var methodOrder = map[string]int{"GET": 0, "HEAD": 1, "POST": 2, "PUT": 3, "PATCH": 4, "DELETE": 5, "OPTIONS": 6}

func (g *gen) document() (map[string]any, int, error) {
	sort.SliceStable(g.routes, func(i, j int) bool {
		a, b := g.routes[i], g.routes[j]
		if a.path != b.path {
			return a.path < b.path
		}
		return methodOrder[a.method] < methodOrder[b.method]
	})
	// operationIds are handler names; a handler serving several routes gets
	// its path spelled out too.
	uses := map[string]int{}
	for _, r := range g.routes {
		uses[handlerName(r.h)]++
	}
	// A handler that demands sign-in itself needs it as much as a wrapped
	// one; a write with a token needs at least the write scope.
	for _, r := range g.routes {
		if r.h.scope != "" || r.h.decl == nil && r.h.lit == nil {
			continue
		}
		if s := g.handlerScope(r.h); s != "" {
			if r.method != "GET" && r.method != "HEAD" && r.method != "OPTIONS" {
				s = maxScope(s, "write")
			}
			r.h.scope = s
		}
	}
	paths := map[string]any{}
	tags := map[string]bool{}
	seen := map[string]string{}
	for _, r := range g.routes {
		key := r.method + " " + openapiPath(r.path)
		if prev, dup := seen[key]; dup {
			return nil, 0, fmt.Errorf("%s: %s is registered twice (first at %s)", r.where, key, prev)
		}
		seen[key] = r.where
		opID := handlerName(r.h)
		if opID == "" || uses[opID] > 1 {
			opID = strings.ToLower(r.method) + pathID(r.path)
			if name := handlerName(r.h); name != "" {
				opID = name + "_" + opID
			}
		}
		item, _ := paths[openapiPath(r.path)].(map[string]any)
		if item == nil {
			item = map[string]any{}
			paths[openapiPath(r.path)] = item
		}
		tag := tagOf(r.path)
		tags[tag] = true
		item[strings.ToLower(r.method)] = g.operation(r, opID, tag)
	}
	tagDescriptions := g.stringMap(g.root, "OpenAPITags")
	var tagList []any
	for _, t := range sortedKeys(tags) {
		desc := tagDescriptions[t]
		if desc == "" {
			g.warn(fmt.Sprintf("the operations under %q have no tag description: add one to OpenAPITags in the API package", t))
			tagList = append(tagList, map[string]any{"name": t})
			continue
		}
		tagList = append(tagList, map[string]any{"name": t, "description": desc})
	}
	doc := map[string]any{
		"openapi": "3.0.3",
		"info": map[string]any{
			"title":   "dForge API",
			"version": "1",
			"description": "The JSON API of a dForge node, generated from its code (internal/api) by `make openapi`. " +
				"It follows Gitea's API v1 for the forge's resources, so Gitea's clients work with it. " +
				"Errors answer {message, code, field}. Lists take page (from 1) and limit, and answer with " +
				"X-Total-Count and Link headers. Operations with x-dforge-scope need sign-in: the session cookie " +
				"(and, for a write, the X-CSRF-Token header), or an access token (`Authorization: token …`, or " +
				"HTTP Basic with the token as the password) with at least that scope: read, write or admin. " +
				"Any other operation may be called anonymously or signed in; signed in, it answers what that user may see.",
			"license": map[string]any{"name": "AGPL-3.0-or-later", "url": "https://www.gnu.org/licenses/agpl-3.0.html"},
		},
		// Paths start with /api, so the server is the node that serves the document.
		"servers": []any{map[string]any{"url": "/", "description": "the node serving this document"}},
		"tags":    tagList,
		"paths":   paths,
		"components": map[string]any{
			"schemas":         g.components,
			"securitySchemes": g.securitySchemes(),
			"responses": map[string]any{
				"Error": map[string]any{
					"description": "An error: a readable message, a stable code and, when one input field is at fault, its name.",
					"content":     map[string]any{"application/json": map[string]any{"schema": g.errorSchema()}},
				},
			},
		},
	}
	return doc, len(g.routes), nil
}

// errorSchema is the API's error body: ErrorBody (errorBody before the
// API's subpackages needed it exported) in the API package.
func (g *gen) errorSchema() schema {
	for _, n := range []string{"ErrorBody", "errorBody"} {
		if td := g.root.types[n]; td != nil {
			return g.namedSchema(td)
		}
	}
	return schema{"type": "object", "properties": schema{
		"message": schema{"type": "string"}, "code": schema{"type": "string"}, "field": schema{"type": "string"}}}
}

// The security schemes. The token schemes take Gitea's names, so a client
// configured for Gitea's document finds them; Gitea's query-string tokens
// (?token=, ?access_token=) are not listed, since the node does not read them.
const (
	schemeSession = "SessionCookie"
	schemeCSRF    = "CSRFToken"
	schemeHeader  = "AuthorizationHeaderToken"
	schemeBasic   = "BasicAuth"
)

// authNames reads the session cookie's and the CSRF header's names, and the
// paths that ignore credentials, from internal/auth.
func (g *gen) authNames() (cookie, csrf string, signIn map[string]bool) {
	cookie, csrf = "dforge_session", "X-CSRF-Token"
	p, _ := g.mod.load(g.mod.path + "/internal/auth")
	if p == nil {
		return cookie, csrf, nil
	}
	s := newScope(nil, p.files[0])
	if v, ok := g.constString(ast.NewIdent("CookieName"), s); ok {
		cookie = v
	}
	if v, ok := g.constString(ast.NewIdent("CSRFHeader"), s); ok {
		csrf = v
	}
	return cookie, csrf, g.stringSet(p, "signInPaths")
}

// stringSet is the keys of a package-level map literal (var name = map[string]bool{...}).
func (g *gen) stringSet(p *pkg, name string) map[string]bool {
	m := g.stringMap(p, name)
	if m == nil {
		return nil
	}
	out := map[string]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}

// stringMap reads a package-level map literal with constant string keys:
// each key with its value when that is a constant string ("" otherwise).
// nil when there is no such variable.
func (g *gen) stringMap(p *pkg, name string) map[string]string {
	for _, f := range p.files {
		for _, d := range f.ast.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if n.Name != name || i >= len(vs.Values) {
						continue
					}
					lit, ok := vs.Values[i].(*ast.CompositeLit)
					if !ok {
						return nil
					}
					sc := newScope(nil, f)
					out := map[string]string{}
					for _, el := range lit.Elts {
						kv, ok := el.(*ast.KeyValueExpr)
						if !ok {
							continue
						}
						if k, ok := g.constString(kv.Key, sc); ok {
							out[k], _ = g.constString(kv.Value, sc)
						}
					}
					return out
				}
			}
		}
	}
	return nil
}

func (g *gen) securitySchemes() map[string]any {
	cookie, csrf, _ := g.authNames()
	return map[string]any{
		schemeSession: map[string]any{"type": "apiKey", "in": "cookie", "name": cookie,
			"description": "The browser session, set by signing in with a wallet (POST /api/v1/auth/siwe). A session may do everything its user may."},
		schemeCSRF: map[string]any{"type": "apiKey", "in": "header", "name": csrf,
			"description": "The session's CSRF token (csrfToken in the sign-in and GET /api/v1/auth/session answers); every write made with the session cookie carries it."},
		schemeHeader: map[string]any{"type": "apiKey", "in": "header", "name": "Authorization",
			"description": "`token <access token>` (or `Bearer <access token>`): a personal access token, made with POST /api/v1/users/{username}/tokens. Its scope (read, write or admin) must be at least the operation's x-dforge-scope."},
		schemeBasic: map[string]any{"type": "http", "scheme": "basic",
			"description": "HTTP Basic with an access token as the password, as git sends it."},
	}
}

// security is an operation's security requirements. Every request passes
// the auth middleware, so any operation may be called signed in; one
// that needs sign-in lists the credentials only, a public one adds the
// empty requirement (anonymous), and a sign-in path, which ignores any
// credential, has none. A write with the session cookie also needs the
// CSRF header.
func (g *gen) security(r *route) []any {
	if g.signInPaths[r.path] {
		return []any{}
	}
	session := map[string]any{schemeSession: []any{}}
	if r.method != "GET" && r.method != "HEAD" && r.method != "OPTIONS" {
		session[schemeCSRF] = []any{}
	}
	reqs := []any{session, map[string]any{schemeHeader: []any{}}, map[string]any{schemeBasic: []any{}}}
	if r.h.scope == "" {
		reqs = append([]any{map[string]any{}}, reqs...)
	}
	return reqs
}

func (g *gen) operation(r *route, opID, tag string) map[string]any {
	o := newOp()
	if r.h.decl != nil || r.h.lit != nil {
		o = g.analyze(r.h)
	}
	summary, description := g.describe(r)
	out := map[string]any{
		"operationId": opID,
		"summary":     summary,
		"tags":        []any{tag},
	}
	if description != "" {
		out["description"] = description
	}
	if name := handlerName(r.h); name != "" {
		out["x-go-handler"] = name
	}
	var params []any
	for _, p := range pathParams(r.path) {
		param := map[string]any{"name": p.name, "in": "path", "required": true, "schema": schema{"type": "string"}}
		if p.rest {
			param["description"] = "The rest of the path: it may contain slashes."
		}
		params = append(params, param)
	}
	for _, name := range o.queryKeys {
		if isPathParam(r.path, name) {
			continue
		}
		params = append(params, map[string]any{"name": name, "in": "query", "schema": schema{"type": o.query[name]}})
	}
	if len(params) > 0 {
		out["parameters"] = params
	}
	if len(o.request) > 0 {
		out["requestBody"] = map[string]any{"required": true, "content": map[string]any{"application/json": map[string]any{"schema": oneOf(o.request)}}}
	}
	// Errors share one shape; a user's mistake is a 4xx, the rest (default) a 5xx.
	responses := map[string]any{"4XX": map[string]any{"$ref": "#/components/responses/Error"}, "default": map[string]any{"$ref": "#/components/responses/Error"}}
	for status, resp := range o.responses {
		rm := map[string]any{"description": http.StatusText(status)}
		content := map[string]any{}
		if len(resp.schemas) > 0 {
			content["application/json"] = map[string]any{"schema": oneOf(resp.schemas)}
		}
		if status == 200 && o.raw {
			for _, ct := range o.ctypes {
				// Bytes written as JSON beside a value encoded as JSON are that
				// value encoded before (api.EncodedJSON): the value's schema holds.
				if _, typed := content[ct]; !typed {
					content[ct] = map[string]any{"schema": schema{"type": "string"}}
				}
			}
		}
		if len(content) > 0 {
			rm["content"] = content
			if len(o.headers) > 0 {
				hs := map[string]any{}
				for h := range o.headers {
					hs[h] = map[string]any{"schema": headerSchema(h), "description": headerDescription(h)}
				}
				rm["headers"] = hs
			}
		}
		responses[strconv.Itoa(status)] = rm
	}
	out["responses"] = responses
	out["security"] = g.security(r)
	if r.h.scope != "" {
		out["x-dforge-scope"] = r.h.scope
		if r.h.wrapper == "tokenOwnerOnly" {
			out["x-dforge-owner-only"] = true
		}
	}
	return out
}

func headerSchema(name string) schema {
	if name == "X-Total-Count" || name == "Retry-After" {
		return schema{"type": "integer"}
	}
	return schema{"type": "string"}
}

func headerDescription(name string) string {
	switch name {
	case "X-Total-Count":
		return "How many items the whole list has."
	case "Link":
		return "URLs of the next, last, first and previous pages, where they apply."
	}
	return name
}

func oneOf(list []schema) schema {
	if len(list) == 1 {
		return list[0]
	}
	items := make([]any, len(list))
	for i, s := range list {
		items[i] = s
	}
	return schema{"oneOf": items}
}

// describe is an operation's summary and description.
func (g *gen) describe(r *route) (string, string) {
	var doc, name string
	switch {
	case r.h.factory != nil:
		doc, name = r.h.factory.decl.Doc.Text(), r.h.factory.decl.Name.Name
	case r.h.decl != nil:
		doc, name = r.h.decl.decl.Doc.Text(), r.h.decl.decl.Name.Name
	}
	text := cleanDoc(doc, name)
	if isDefinition(doc, name) { // "searchRepos is Gitea's search": "Search repos: Gitea's search"
		text = humanize(name) + ": " + text
	}
	summary, rest := firstSentence(text)
	if summary == "" {
		summary = humanize(name)
		if summary == "" {
			summary = r.method + " " + r.path
		}
	}
	if len(r.h.factoryArgs) > 0 {
		summary = strings.TrimSuffix(summary, ".") + " (" + strings.Join(r.h.factoryArgs, ", ") + ")."
	}
	var parts []string
	if rest != "" {
		parts = append(parts, rest)
	}
	if r.note != "" {
		parts = append(parts, r.note)
	}
	if r.h.wrapper == "tokenOwnerOnly" {
		parts = append(parts, "Only the user the path names may call it.")
	}
	return summary, strings.Join(parts, "\n\n")
}

// cleanDoc is a doc comment as prose: lines joined, paragraphs kept, and a
// leading "name is" / "name" dropped ("getBlob is Gitea's ..." becomes
// "Gitea's ...").
func cleanDoc(text, name string) string {
	var paras []string
	for _, p := range strings.Split(strings.TrimSpace(text), "\n\n") {
		if p = strings.Join(strings.Fields(p), " "); p != "" {
			paras = append(paras, p)
		}
	}
	out := strings.Join(paras, "\n\n")
	if name != "" {
		if rest, ok := strings.CutPrefix(out, name+" "); ok {
			for _, verb := range []string{"is ", "are "} {
				rest = strings.TrimPrefix(rest, verb)
			}
			out = upperFirst(rest)
		}
	}
	return out
}

// isDefinition reports whether a doc comment says what name is ("name is
// ...") rather than what it does.
func isDefinition(doc, name string) bool {
	f := strings.Fields(doc)
	return name != "" && len(f) > 2 && f[0] == name && (f[1] == "is" || f[1] == "are")
}

// firstSentence splits text after its first sentence (a period, outside
// parentheses and quotes, then a space or the end).
func firstSentence(text string) (string, string) {
	depth, quote := 0, false
	for i, c := range text {
		switch c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '`':
			quote = !quote
		case '.':
			if depth == 0 && !quote && (i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\n') {
				return text[:i+1], strings.TrimSpace(text[i+1:])
			}
		}
	}
	return text, ""
}

// humanize turns a handler's name into words: getRepoByID, "Get repo by ID".
func humanize(name string) string {
	var words []string
	runes := []rune(name)
	start := 0
	for i := 1; i <= len(runes); i++ {
		if i == len(runes) || unicode.IsUpper(runes[i]) && (!unicode.IsUpper(runes[i-1]) || i+1 < len(runes) && unicode.IsLower(runes[i+1])) {
			words = append(words, string(runes[start:i]))
			start = i
		}
	}
	for i, w := range words {
		if len(w) < 2 || strings.ToUpper(w) != w { // acronyms (ID, FAQ) stay as they are
			words[i] = strings.ToLower(w)
		}
	}
	if len(words) == 0 {
		return ""
	}
	return upperFirst(strings.Join(words, " "))
}

func handlerName(h *handlerRef) string {
	switch {
	case h.factory != nil:
		return h.factory.decl.Name.Name
	case h.decl != nil:
		return h.decl.decl.Name.Name
	}
	return ""
}

type pathParam struct {
	name string
	rest bool
}

var wildcard = regexp.MustCompile(`\{([A-Za-z_][A-Za-z0-9_]*)(\.\.\.)?\}`)

func pathParams(p string) []pathParam {
	var out []pathParam
	for _, m := range wildcard.FindAllStringSubmatch(p, -1) {
		out = append(out, pathParam{name: m[1], rest: m[2] != ""})
	}
	return out
}

func isPathParam(p, name string) bool {
	for _, pp := range pathParams(p) {
		if pp.name == name {
			return true
		}
	}
	return false
}

// openapiPath is a Go pattern's path as an OpenAPI path: {name...} is {name}.
func openapiPath(p string) string { return wildcard.ReplaceAllString(p, "{$1}") }

// pathID spells a path for an operationId: /repos/{owner}/raw/{path...}
// is ReposByOwnerRawByPath.
func pathID(p string) string {
	var b strings.Builder
	for _, seg := range strings.Split(strings.TrimPrefix(strings.TrimPrefix(p, "/api/v1"), "/api"), "/") {
		if seg == "" {
			continue
		}
		if m := wildcard.FindStringSubmatch(seg); m != nil {
			b.WriteString("By" + upperFirst(m[1]))
			continue
		}
		for _, part := range strings.FieldsFunc(seg, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			b.WriteString(upperFirst(part))
		}
	}
	return b.String()
}

// tagOf groups by the first segment after /api/v1 (or /api).
func tagOf(p string) string {
	rest := strings.TrimPrefix(p, "/api/v1/")
	if rest == p {
		rest = strings.TrimPrefix(p, "/api/")
	}
	seg, _, _ := strings.Cut(strings.TrimPrefix(rest, "/"), "/")
	if seg == "" || strings.HasPrefix(seg, "{") {
		return "api"
	}
	return seg
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func relPath(root, p string) string {
	if rel, err := filepath.Rel(root, p); err == nil {
		return filepath.ToSlash(rel)
	}
	return p
}

// exprString is an expression as source, for messages.
func exprString(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return exprString(x.X) + "." + x.Sel.Name
	case *ast.CallExpr:
		return exprString(x.Fun) + "(...)"
	case *ast.ParenExpr:
		return "(" + exprString(x.X) + ")"
	case *ast.BasicLit:
		return x.Value
	}
	return fmt.Sprintf("%T", e)
}

var _ = token.NoPos
