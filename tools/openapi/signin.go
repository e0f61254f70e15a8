package openapi

import (
	"go/ast"
)

// Besides the wrappers (signedIn, adminOnly), a handler may demand sign-in
// itself, first thing: `id, err := requireUser(r)`, `a.requireAdmin(r)`,
// both of which end in auth.Require(ctx, scope). requiredScope finds such
// a demand among a body's leading statements, before anything could
// answer without it, following the module's functions it calls there.

// maxRequireDepth bounds how deep requiredScope follows calls.
const maxRequireDepth = 4

// handlerScope is the least scope the handler itself demands; "" when it
// serves anonymous callers.
func (g *gen) handlerScope(h *handlerRef) string {
	switch {
	case h.decl != nil:
		s := g.bindCall(callee{fd: h.decl}, &ast.CallExpr{}, nil)
		for _, p := range fields(h.decl.decl.Type.Params) {
			if p.name != "" && p.name != "_" {
				s.vars[p.name] = g.paramBinding(p.typ, h.decl.file)
			}
		}
		return g.requiredScope(h.decl.decl.Body, s, 0)
	case h.lit != nil:
		s := h.litScope.child()
		for _, p := range fields(h.lit.Type.Params) {
			if p.name != "" && p.name != "_" {
				s.vars[p.name] = g.paramBinding(p.typ, h.litScope.f)
			}
		}
		return g.requiredScope(h.lit.Body, s, 0)
	}
	return ""
}

// requiredScope reads a body's statements up to the first one that could
// answer: an assignment or call that demands sign-in gives its scope; an
// `if ... { return err }` (which only refuses) is passed over; anything
// else ends the search.
func (g *gen) requiredScope(body *ast.BlockStmt, sc *scope, depth int) string {
	if body == nil || depth > maxRequireDepth {
		return ""
	}
	for _, st := range body.List {
		var calls []ast.Expr
		switch st := st.(type) {
		case *ast.AssignStmt:
			calls = st.Rhs
		case *ast.ExprStmt:
			calls = []ast.Expr{st.X}
		case *ast.ReturnStmt:
			calls = st.Results // return requireUser(r)'s error, or a call that demands it
		case *ast.IfStmt:
			if !g.onlyRefuses(st, sc) {
				return ""
			}
			if init, ok := st.Init.(*ast.AssignStmt); ok {
				calls = init.Rhs
			}
		case *ast.DeclStmt:
			continue
		default:
			return ""
		}
		if s := g.firstDemand(calls, sc, depth); s != "" {
			return s
		}
		if _, ok := st.(*ast.ReturnStmt); ok {
			return ""
		}
	}
	return ""
}

// firstDemand is the scope the first of the calls that demands sign-in
// demands.
func (g *gen) firstDemand(exprs []ast.Expr, sc *scope, depth int) string {
	for _, e := range exprs {
		call, ok := e.(*ast.CallExpr)
		if !ok {
			continue
		}
		c := g.resolveFunc(call.Fun, sc)
		if c.fd == nil {
			continue
		}
		if c.fd.pkg.name == "auth" && c.fd.decl.Name.Name == "Require" && len(call.Args) == 2 {
			return g.scopeName(call.Args[1], sc)
		}
		if !g.inAPI(c.fd.pkg) {
			continue
		}
		if s := g.requiredScope(c.fd.decl.Body, g.bindCall(c, call, sc), depth+1); s != "" {
			return s
		}
	}
	return ""
}

// onlyRefuses reports whether an if statement, without else, never
// answers a caller the statements after it would have turned away: its
// condition is constantly false (a parameter bound to a constant), or it
// only returns an error, a variable (`return err`) or a new one from
// another package (`return usererr.Missingf(...)`). A call of the API
// package's own may answer or find something, so it ends the search.
func (g *gen) onlyRefuses(st *ast.IfStmt, sc *scope) bool {
	if st.Else != nil {
		return false
	}
	if v, known := g.constOf(st.Cond, sc); known && v == false {
		return true
	}
	if len(st.Body.List) != 1 {
		return false
	}
	ret, ok := st.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) == 0 {
		return false
	}
	switch last := ret.Results[len(ret.Results)-1].(type) {
	case *ast.Ident:
		return last.Name != "nil"
	case *ast.CallExpr:
		c := g.resolveFunc(last.Fun, sc)
		return c.fd == nil || !g.inAPI(c.fd.pkg)
	}
	return false
}
