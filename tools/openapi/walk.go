package openapi

import (
	"go/ast"
	"go/token"
)

// walker goes through a function body in order, keeping the names in
// scope, and hands each call to onCall (false: do not look inside it).
// Branches whose condition is a constant false (a parameter bound to a
// constant argument, say) are skipped.
type walker struct {
	g      *gen
	onCall func(call *ast.CallExpr, sc *scope) bool
}

func (w *walker) body(b *ast.BlockStmt, sc *scope) {
	if b != nil {
		w.list(b.List, sc)
	}
}

func (w *walker) list(list []ast.Stmt, sc *scope) {
	for _, s := range list {
		w.stmt(s, sc)
	}
}

func (w *walker) stmt(s ast.Stmt, sc *scope) {
	switch s := s.(type) {
	case nil:
	case *ast.BlockStmt:
		w.list(s.List, sc.child())
	case *ast.ExprStmt:
		w.expr(s.X, sc)
	case *ast.AssignStmt:
		for _, r := range s.Rhs {
			w.expr(r, sc)
		}
		if s.Tok != token.DEFINE {
			for _, l := range s.Lhs {
				w.expr(l, sc)
			}
			return
		}
		for i, l := range s.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok || id.Name == "_" {
				continue
			}
			b := &binding{rhs: s.Rhs, idx: i, n: len(s.Lhs), sc: sc}
			if len(s.Rhs) == len(s.Lhs) {
				w.g.markBinding(b, s.Rhs[i], sc)
			}
			sc.vars[id.Name] = b
		}
	case *ast.DeclStmt:
		gd, ok := s.Decl.(*ast.GenDecl)
		if !ok {
			return
		}
		for _, spec := range gd.Specs {
			vs, ok := spec.(*ast.ValueSpec)
			if !ok {
				continue
			}
			for _, v := range vs.Values {
				w.expr(v, sc)
			}
			for i, n := range vs.Names {
				if n.Name == "_" {
					continue
				}
				b := &binding{typ: vs.Type, tf: sc.f, idx: i, n: len(vs.Names), sc: sc, konst: gd.Tok == token.CONST}
				if len(vs.Values) > 0 {
					b.rhs = vs.Values
					if vs.Type != nil && !b.konst {
						b.rhs = nil // the declared type is the type
					}
				}
				if len(vs.Values) == len(vs.Names) && len(vs.Values) > 0 {
					w.g.markBinding(b, vs.Values[i], sc)
				}
				sc.vars[n.Name] = b
			}
		}
	case *ast.IfStmt:
		is := sc.child()
		w.stmt(s.Init, is)
		w.expr(s.Cond, is)
		v, known := w.g.constOf(s.Cond, is)
		cond, isBool := v.(bool)
		known = known && isBool
		if !known || cond {
			w.list(s.Body.List, is.child())
		}
		if s.Else != nil && (!known || !cond) {
			w.stmt(s.Else, is)
		}
	case *ast.ForStmt:
		fs := sc.child()
		w.stmt(s.Init, fs)
		w.expr(s.Cond, fs)
		w.stmt(s.Post, fs)
		w.list(s.Body.List, fs.child())
	case *ast.RangeStmt:
		w.expr(s.X, sc)
		rs := sc.child()
		if s.Tok == token.DEFINE {
			if id, ok := s.Key.(*ast.Ident); ok && id.Name != "_" {
				rs.vars[id.Name] = &binding{rangeOf: s.X, rangeKey: true, sc: sc}
			}
			if id, ok := s.Value.(*ast.Ident); ok && id.Name != "_" {
				rs.vars[id.Name] = &binding{rangeOf: s.X, sc: sc}
			}
		}
		w.list(s.Body.List, rs.child())
	case *ast.SwitchStmt:
		ss := sc.child()
		w.stmt(s.Init, ss)
		w.expr(s.Tag, ss)
		for _, c := range s.Body.List {
			cc := c.(*ast.CaseClause)
			for _, e := range cc.List {
				w.expr(e, ss)
			}
			w.list(cc.Body, ss.child())
		}
	case *ast.TypeSwitchStmt:
		ss := sc.child()
		w.stmt(s.Init, ss)
		name := ""
		var subject ast.Expr
		switch a := s.Assign.(type) {
		case *ast.AssignStmt:
			if id, ok := a.Lhs[0].(*ast.Ident); ok {
				name = id.Name
			}
			if ta, ok := a.Rhs[0].(*ast.TypeAssertExpr); ok {
				subject = ta.X
			}
		case *ast.ExprStmt:
			if ta, ok := a.X.(*ast.TypeAssertExpr); ok {
				subject = ta.X
			}
		}
		w.expr(subject, ss)
		for _, c := range s.Body.List {
			cc := c.(*ast.CaseClause)
			cs := ss.child()
			if name != "" {
				if len(cc.List) == 1 {
					cs.vars[name] = &binding{caseType: cc.List[0], sc: ss}
				} else {
					cs.vars[name] = &binding{rhs: []ast.Expr{subject}, n: 1, sc: ss}
				}
			}
			w.list(cc.Body, cs)
		}
	case *ast.SelectStmt:
		for _, c := range s.Body.List {
			cc := c.(*ast.CommClause)
			cs := sc.child()
			w.stmt(cc.Comm, cs)
			w.list(cc.Body, cs)
		}
	case *ast.ReturnStmt:
		for _, r := range s.Results {
			w.expr(r, sc)
		}
	case *ast.DeferStmt:
		w.expr(s.Call, sc)
	case *ast.GoStmt:
		w.expr(s.Call, sc)
	case *ast.LabeledStmt:
		w.stmt(s.Stmt, sc)
	case *ast.IncDecStmt:
		w.expr(s.X, sc)
	case *ast.SendStmt:
		w.expr(s.Chan, sc)
		w.expr(s.Value, sc)
	}
}

func (w *walker) expr(e ast.Expr, sc *scope) {
	if e == nil {
		return
	}
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			w.funcLit(n, sc, nil)
			return false
		case *ast.CallExpr:
			return w.onCall(n, sc)
		}
		return true
	})
}

// funcLit walks a function literal's body with its parameters in scope;
// args, when given, are the arguments it is called with.
func (w *walker) funcLit(lit *ast.FuncLit, sc *scope, bind func(*scope)) {
	ls := sc.child()
	for _, p := range fields(lit.Type.Params) {
		if p.name != "" && p.name != "_" {
			ls.vars[p.name] = w.g.paramBinding(p.typ, sc.f)
		}
	}
	if bind != nil {
		bind(ls)
	}
	w.body(lit.Body, ls)
}

// paramBinding is a parameter known only by its type; a ResponseWriter or
// Request parameter of a handler is the handler's own.
func (g *gen) paramBinding(typ ast.Expr, f *file) *binding {
	b := &binding{typ: typ, tf: f}
	switch g.typeKey(&tref{typ, f}) {
	case "net/http.ResponseWriter":
		b.writer = true
	case "*net/http.Request":
		b.request = true
	}
	return b
}

// markBinding notes what a new variable is, when it is one of the things
// the walk looks for: a request's query, one query parameter, a
// response's headers.
func (g *gen) markBinding(b *binding, rhs ast.Expr, sc *scope) {
	if isQueryCall(rhs) {
		b.query = true
	}
	if name, ok := g.queryRead(rhs, sc); ok {
		b.queryParam = name
	}
	if call, ok := rhs.(*ast.CallExpr); ok {
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Header" && g.isWriter(sel.X, sc) {
			b.header = true
		}
	}
}

// isQueryCall matches x.URL.Query().
func isQueryCall(e ast.Expr) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Query" {
		return false
	}
	u, ok := sel.X.(*ast.SelectorExpr)
	return ok && u.Sel.Name == "URL"
}

// queryRead matches q.Get("name"), q.Has("name"), r.URL.Query().Get(...)
// and r.FormValue("name").
func (g *gen) queryRead(e ast.Expr, sc *scope) (string, bool) {
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return "", false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	switch sel.Sel.Name {
	case "Get", "Has":
		if !isQueryCall(sel.X) {
			id, ok := sel.X.(*ast.Ident)
			if !ok {
				return "", false
			}
			if b := sc.lookup(id.Name); b == nil || !b.query {
				return "", false
			}
		}
	case "FormValue":
		if !g.isRequest(sel.X, sc) {
			return "", false
		}
	default:
		return "", false
	}
	return g.constString(call.Args[0], sc)
}

func (g *gen) isWriter(e ast.Expr, sc *scope) bool {
	if p, ok := e.(*ast.ParenExpr); ok {
		return g.isWriter(p.X, sc)
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return false
	}
	b := sc.lookup(id.Name)
	return b != nil && b.writer
}

func (g *gen) isRequest(e ast.Expr, sc *scope) bool {
	if p, ok := e.(*ast.ParenExpr); ok {
		return g.isRequest(p.X, sc)
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return false
	}
	b := sc.lookup(id.Name)
	return b != nil && b.request
}

// bindCall is the scope a followed call's body runs in: its receiver and
// parameters bound to the call's arguments.
func (g *gen) bindCall(c callee, call *ast.CallExpr, sc *scope) *scope {
	fd := c.fd
	s := newScope(nil, fd.file)
	if fd.decl.Recv != nil && len(fd.decl.Recv.List) == 1 {
		r := fd.decl.Recv.List[0]
		if len(r.Names) == 1 && r.Names[0].Name != "_" {
			s.vars[r.Names[0].Name] = &binding{typ: r.Type, tf: fd.file, arg: c.recv, argSc: c.recvS}
			if c.recv == nil {
				s.vars[r.Names[0].Name].arg = nil
			}
		}
	}
	params := fields(fd.decl.Type.Params)
	for i, p := range params {
		if p.name == "" || p.name == "_" {
			continue
		}
		b := &binding{typ: p.typ, tf: fd.file}
		if _, variadic := p.typ.(*ast.Ellipsis); !variadic && i < len(call.Args) && call.Ellipsis == token.NoPos {
			b.arg, b.argSc = call.Args[i], sc
			b.writer = g.isWriter(call.Args[i], sc)
			b.request = g.isRequest(call.Args[i], sc)
		}
		s.vars[p.name] = b
	}
	return s
}
