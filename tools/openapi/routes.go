package openapi

import (
	"fmt"
	"go/ast"
	"strings"
)

// route is one mux.HandleFunc("METHOD /path", handler) of the API.
type route struct {
	method string
	path   string // the Go pattern's path: {name} and {name...}
	h      *handlerRef
	note   string // the comment just above the registration
	where  string
}

// handlerRef is what serves a route: a declared handler, or the function
// literal a handler factory returns (with the factory's arguments bound),
// and the sign-in the wrappers around it demand.
type handlerRef struct {
	decl        *funcDecl
	lit         *ast.FuncLit
	litScope    *scope
	factory     *funcDecl
	factoryArgs []string
	scope       string // the least token scope: read, write or admin; "" for a public route
	wrapper     string // the wrapper that demands sign-in
}

// registrations finds every route Register adds, following the calls it
// makes that are handed the mux (RegisterAuth, RegisterRepos, ...) into
// the API package and its subpackages.
func (g *gen) registrations() error {
	entry, err := g.entry()
	if err != nil {
		return err
	}
	w := &walker{g: g}
	stack := map[*funcDecl]bool{entry: true}
	w.onCall = func(call *ast.CallExpr, sc *scope) bool {
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "HandleFunc" || sel.Sel.Name == "Handle") &&
			g.typeKey(g.typeOf(sel.X, sc)) == "*net/http.ServeMux" && len(call.Args) == 2 {
			g.addRoute(call, sc)
			return false
		}
		c := g.resolveFunc(call.Fun, sc)
		if c.fd == nil || !g.inAPI(c.fd.pkg) || stack[c.fd] {
			return true
		}
		takesMux := false
		for _, a := range call.Args {
			if g.typeKey(g.typeOf(a, sc)) == "*net/http.ServeMux" {
				takesMux = true
			}
		}
		if !takesMux {
			return true
		}
		stack[c.fd] = true
		w.body(c.fd.decl.Body, g.bindCall(c, call, sc))
		delete(stack, c.fd)
		return false
	}
	s := g.bindCall(callee{fd: entry}, &ast.CallExpr{}, nil)
	for _, p := range fields(entry.decl.Type.Params) {
		if p.name != "" {
			s.vars[p.name] = &binding{typ: p.typ, tf: entry.file}
		}
	}
	w.body(entry.decl.Body, s)
	return nil
}

// entry is the Register method that adds every route: the API package's
// own, or else that of its route table, the subpackage routes (which the
// API package cannot import, as it imports the API's resource packages).
func (g *gen) entry() (*funcDecl, error) {
	pkgs := []*pkg{g.root}
	if p, err := g.mod.load(g.root.path + "/routes"); err != nil {
		return nil, err
	} else if p != nil {
		pkgs = append(pkgs, p)
	}
	for _, p := range pkgs {
		for _, ms := range p.methods {
			if m := ms["Register"]; m != nil {
				return m, nil
			}
		}
	}
	return nil, fmt.Errorf("neither %s nor %s/routes has a Register method", g.root.path, g.root.path)
}

// inAPI reports whether p is the API package or one of its subpackages,
// whose functions the generator follows.
func (g *gen) inAPI(p *pkg) bool {
	return p == g.root || strings.HasPrefix(p.path, g.root.path+"/")
}

func (g *gen) addRoute(call *ast.CallExpr, sc *scope) {
	pos := g.mod.fset.Position(call.Pos())
	where := fmt.Sprintf("%s:%d", relPath(g.mod.root, pos.Filename), pos.Line)
	pattern, ok := g.constString(call.Args[0], sc)
	if !ok {
		g.errs = append(g.errs, fmt.Errorf("%s: the route's pattern is not a constant string: the OpenAPI generator "+
			"(tools/openapi) reads \"METHOD /path\" patterns made of string literals and constants", where))
		return
	}
	method, p := "", pattern
	if i := strings.IndexAny(pattern, " \t"); i >= 0 {
		method, p = pattern[:i], strings.TrimLeft(pattern[i:], " \t")
	}
	if i := strings.Index(p, "/"); i > 0 { // a host
		p = p[i:]
	}
	if strings.HasSuffix(p, "/") { // a subtree: the API's catch-all 404
		return
	}
	p = strings.TrimSuffix(p, "{$}")
	if method == "" {
		method = "GET"
	}
	h, err := g.handlerOf(call.Args[1], sc, 0)
	if err != nil {
		g.warn(fmt.Sprintf("%s: %s %s: %v", where, method, p, err))
		h = &handlerRef{}
	}
	g.routes = append(g.routes, &route{method: method, path: p, h: h, note: g.commentAbove(sc.f, call), where: where})
}

// commentAbove is the comment on the lines just above a registration.
func (g *gen) commentAbove(f *file, call *ast.CallExpr) string {
	line := g.mod.fset.Position(call.Pos()).Line
	for _, cg := range f.ast.Comments {
		if g.mod.fset.Position(cg.End()).Line == line-1 {
			return cleanDoc(cg.Text(), "")
		}
	}
	return ""
}

// handlerOf works out what a handler expression serves: a.getRepo;
// h.read(h.listIssues); a.signedIn(auth.ScopeWrite, a.createRepo);
// w(h.createIssue) where w is a closure over signedIn;
// a.flagRepo("repo.star", http.StatusNoContent), a factory.
func (g *gen) handlerOf(e ast.Expr, sc *scope, depth int) (*handlerRef, error) {
	if depth > 10 {
		return nil, fmt.Errorf("handler wrapped too deeply")
	}
	if p, ok := e.(*ast.ParenExpr); ok {
		return g.handlerOf(p.X, sc, depth+1)
	}
	if id, ok := e.(*ast.Ident); ok { // a parameter or a variable holding a handler
		if b := sc.lookup(id.Name); b != nil {
			switch {
			case b.arg != nil:
				return g.handlerOf(b.arg, b.argSc, depth+1)
			case b.rhs != nil && len(b.rhs) == b.n && b.idx < len(b.rhs):
				return g.handlerOf(b.rhs[b.idx], b.sc, depth+1)
			}
		}
	}
	call, ok := e.(*ast.CallExpr)
	if !ok {
		c := g.resolveFunc(e, sc)
		switch {
		case c.fd != nil:
			return &handlerRef{decl: c.fd}, nil
		case c.lit != nil:
			return &handlerRef{lit: c.lit, litScope: c.litSc}, nil
		}
		return nil, fmt.Errorf("cannot tell what %s is", exprString(e))
	}
	c := g.resolveFunc(call.Fun, sc)
	if c.lit != nil { // a closure wrapper: what it returns, its parameters bound
		ls := c.litSc.child()
		for i, p := range fields(c.lit.Type.Params) {
			if p.name != "" && i < len(call.Args) {
				ls.vars[p.name] = &binding{typ: p.typ, tf: c.litSc.f, arg: call.Args[i], argSc: sc}
			}
		}
		ret := singleReturn(c.lit.Body)
		if ret == nil {
			return nil, fmt.Errorf("the wrapper %s does not return a handler", exprString(call.Fun))
		}
		return g.handlerOf(ret, ls, depth+1)
	}
	if c.fd == nil {
		return nil, fmt.Errorf("cannot tell what %s is", exprString(call.Fun))
	}
	params := fields(c.fd.decl.Type.Params)
	hIdx, scopeIdx := -1, -1
	for i, p := range params {
		if i >= len(call.Args) {
			break
		}
		if g.isFuncType(&tref{p.typ, c.fd.file}) {
			hIdx = i
		}
		if g.isScopeType(&tref{p.typ, c.fd.file}) {
			scopeIdx = i
		}
	}
	if hIdx < 0 { // a factory: the function literal it returns, its arguments bound
		fs := g.bindCall(c, call, sc)
		lit := returnedLit(c.fd.decl.Body)
		if lit == nil {
			return nil, fmt.Errorf("%s returns no function literal", c.fd.decl.Name.Name)
		}
		ref := &handlerRef{lit: lit, litScope: fs, factory: c.fd}
		for _, a := range call.Args {
			if s, ok := g.constString(a, sc); ok {
				ref.factoryArgs = append(ref.factoryArgs, s)
			}
		}
		return ref, nil
	}
	inner, err := g.handlerOf(call.Args[hIdx], sc, depth+1)
	if err != nil {
		return nil, err
	}
	switch {
	case scopeIdx >= 0:
		inner.scope = maxScope(inner.scope, g.scopeName(call.Args[scopeIdx], sc))
		inner.wrapper = c.fd.decl.Name.Name
	default: // a wrapper around another wrapper?
		if ret, ok := singleReturn(c.fd.decl.Body).(*ast.CallExpr); ok {
			if outer, err := g.handlerOf(ret, g.bindCall(c, call, sc), depth+1); err == nil && outer.scope != "" {
				inner.scope = maxScope(inner.scope, outer.scope)
				inner.wrapper = outer.wrapper
			}
		}
	}
	return inner, nil
}

// isFuncType reports whether a parameter takes a handler: a function type,
// http.HandlerFunc or http.Handler, or a named function type.
func (g *gen) isFuncType(t *tref) bool {
	switch g.typeKey(t) {
	case "net/http.HandlerFunc", "net/http.Handler":
		return true
	}
	u := g.underlying(t)
	if u == nil {
		return false
	}
	_, ok := u.x.(*ast.FuncType)
	return ok
}

// isScopeType matches the auth package's Scope, the least scope a wrapper
// lets through.
func (g *gen) isScopeType(t *tref) bool {
	td := g.named(t)
	return td != nil && td.pkg.name == "auth" && td.spec.Name.Name == "Scope"
}

func (g *gen) scopeName(e ast.Expr, sc *scope) string {
	switch x := e.(type) {
	case *ast.ParenExpr:
		return g.scopeName(x.X, sc)
	case *ast.SelectorExpr:
		return strings.ToLower(strings.TrimPrefix(x.Sel.Name, "Scope"))
	case *ast.Ident:
		if b := sc.lookup(x.Name); b != nil && b.arg != nil {
			return g.scopeName(b.arg, b.argSc)
		}
		return strings.ToLower(strings.TrimPrefix(x.Name, "Scope"))
	}
	return "read"
}

var scopeRank = map[string]int{"": 0, "read": 1, "write": 2, "admin": 3}

func maxScope(a, b string) string {
	if scopeRank[b] > scopeRank[a] {
		return b
	}
	return a
}

// singleReturn is the expression a function body returns, when it is one
// return of one value.
func singleReturn(b *ast.BlockStmt) ast.Expr {
	if b == nil {
		return nil
	}
	var found ast.Expr
	count := 0
	for _, s := range b.List {
		if r, ok := s.(*ast.ReturnStmt); ok {
			count++
			if len(r.Results) == 1 {
				found = r.Results[0]
			}
		}
	}
	if count != 1 {
		return nil
	}
	return found
}

// returnedLit is the function literal a factory returns.
func returnedLit(b *ast.BlockStmt) *ast.FuncLit {
	if b == nil {
		return nil
	}
	var lit *ast.FuncLit
	ast.Inspect(b, func(n ast.Node) bool {
		if lit != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // a literal's own returns are not the factory's
		case *ast.ReturnStmt:
			if len(n.Results) == 1 {
				if l, ok := n.Results[0].(*ast.FuncLit); ok {
					lit = l
				}
			}
		}
		return true
	})
	return lit
}
