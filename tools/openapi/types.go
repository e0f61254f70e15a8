package openapi

import (
	"go/ast"
	"go/token"
	"strconv"
	"strings"
)

// A tref is a Go type expression in the file it appears in, so that the
// names in it resolve; a nil file is the universe (the basic types).
type tref struct {
	x ast.Expr
	f *file
}

func universe(name string) *tref { return &tref{x: ast.NewIdent(name)} }

// binding is what a name in a function stands for.
type binding struct {
	typ ast.Expr // a declared type, in tf
	tf  *file

	rhs   []ast.Expr // name := rhs[idx] (or the idx'th result of rhs[0])
	idx   int
	n     int
	sc    *scope
	konst bool // a constant declaration

	rangeOf  ast.Expr // for key, value := range rangeOf
	rangeKey bool
	caseType ast.Expr // a type switch's clause type

	arg   ast.Expr // a parameter's argument, at the call being followed
	argSc *scope

	writer, request bool   // the handler's own ResponseWriter and Request
	query           bool   // q := r.URL.Query()
	queryParam      string // v := q.Get("name")
	header          bool   // h := w.Header()
}

type scope struct {
	parent *scope
	f      *file
	vars   map[string]*binding
}

func newScope(parent *scope, f *file) *scope {
	if f == nil && parent != nil {
		f = parent.f
	}
	return &scope{parent: parent, f: f, vars: map[string]*binding{}}
}

func (s *scope) child() *scope { return newScope(s, s.f) }

func (s *scope) lookup(name string) *binding {
	for ; s != nil; s = s.parent {
		if b, ok := s.vars[name]; ok {
			return b
		}
	}
	return nil
}

// importOf is the import path an identifier names in this scope, when it
// names an import.
func (s *scope) importOf(x ast.Expr) (string, bool) {
	id, ok := x.(*ast.Ident)
	if !ok || s.lookup(id.Name) != nil || s.f == nil {
		return "", false
	}
	ip, ok := s.f.imports[id.Name]
	return ip, ok
}

const maxDepth = 40

// typeOf is the static type of an expression, or nil when it cannot be
// told from the source read.
func (g *gen) typeOf(e ast.Expr, sc *scope) *tref {
	g.depth++
	defer func() { g.depth-- }()
	if g.depth > maxDepth || e == nil {
		return nil
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return g.typeOf(e.X, sc)
	case *ast.Ident:
		switch e.Name {
		case "true", "false":
			if sc.lookup(e.Name) == nil {
				return universe("bool")
			}
		case "nil":
			return nil
		}
		if b := sc.lookup(e.Name); b != nil {
			return g.bindingType(b)
		}
		if v := sc.f.pkg.values[e.Name]; v != nil {
			return g.valueType(v)
		}
	case *ast.BasicLit:
		switch e.Kind {
		case token.INT:
			return universe("int")
		case token.FLOAT:
			return universe("float64")
		case token.STRING:
			return universe("string")
		case token.CHAR:
			return universe("rune")
		}
	case *ast.CompositeLit:
		if e.Type != nil {
			return &tref{e.Type, sc.f}
		}
	case *ast.UnaryExpr:
		switch e.Op {
		case token.AND:
			if t := g.typeOf(e.X, sc); t != nil {
				return &tref{&ast.StarExpr{X: t.x}, t.f}
			}
		case token.NOT:
			return universe("bool")
		case token.SUB, token.ADD, token.XOR:
			return g.typeOf(e.X, sc)
		}
	case *ast.StarExpr:
		if t := g.typeOf(e.X, sc); t != nil {
			if p, ok := t.x.(*ast.StarExpr); ok {
				return &tref{p.X, t.f}
			}
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ, token.LAND, token.LOR:
			return universe("bool")
		}
		if _, lit := e.X.(*ast.BasicLit); lit {
			return g.typeOf(e.Y, sc)
		}
		return g.typeOf(e.X, sc)
	case *ast.CallExpr:
		if rs := g.callResults(e, sc); len(rs) > 0 {
			return rs[0]
		}
	case *ast.SelectorExpr:
		if ip, ok := sc.importOf(e.X); ok {
			if p, _ := g.mod.load(ip); p != nil {
				if v := p.values[e.Sel.Name]; v != nil {
					return g.valueType(v)
				}
			}
			return nil
		}
		return g.fieldType(g.typeOf(e.X, sc), e.Sel.Name)
	case *ast.IndexExpr:
		t := g.underlying(g.deref(g.typeOf(e.X, sc)))
		if t == nil {
			return nil
		}
		switch u := t.x.(type) {
		case *ast.ArrayType:
			return &tref{u.Elt, t.f}
		case *ast.MapType:
			return &tref{u.Value, t.f}
		case *ast.Ident:
			if u.Name == "string" {
				return universe("byte")
			}
		}
	case *ast.SliceExpr:
		return g.typeOf(e.X, sc)
	case *ast.TypeAssertExpr:
		if e.Type != nil {
			return &tref{e.Type, sc.f}
		}
	}
	return nil
}

func (g *gen) valueType(v *valueDecl) *tref {
	if v.spec.Type != nil {
		return &tref{v.spec.Type, v.file}
	}
	if v.idx < len(v.spec.Values) && len(v.spec.Values) == len(v.spec.Names) {
		return g.typeOf(v.spec.Values[v.idx], newScope(nil, v.file))
	}
	if len(v.spec.Values) == 1 {
		if rs := g.multi(v.spec.Values[0], newScope(nil, v.file)); v.idx < len(rs) {
			return rs[v.idx]
		}
	}
	return nil
}

func (g *gen) bindingType(b *binding) *tref {
	switch {
	case b.typ != nil:
		t := &tref{b.typ, b.tf}
		if b.arg != nil && g.isInterface(t) {
			if at := g.typeOf(b.arg, b.argSc); at != nil {
				return at
			}
		}
		return t
	case b.arg != nil:
		return g.typeOf(b.arg, b.argSc)
	case b.caseType != nil:
		return &tref{b.caseType, b.sc.f}
	case b.rangeOf != nil:
		t := g.underlying(g.deref(g.typeOf(b.rangeOf, b.sc)))
		if t == nil {
			return nil
		}
		switch u := t.x.(type) {
		case *ast.ArrayType:
			if b.rangeKey {
				return universe("int")
			}
			return &tref{u.Elt, t.f}
		case *ast.MapType:
			if b.rangeKey {
				return &tref{u.Key, t.f}
			}
			return &tref{u.Value, t.f}
		case *ast.Ident:
			if u.Name == "string" && !b.rangeKey {
				return universe("rune")
			}
			return universe("int")
		}
	case b.rhs != nil:
		if len(b.rhs) == b.n && b.idx < len(b.rhs) {
			return g.typeOf(b.rhs[b.idx], b.sc)
		}
		if len(b.rhs) == 1 {
			if rs := g.multi(b.rhs[0], b.sc); b.idx < len(rs) {
				return rs[b.idx]
			}
		}
	}
	return nil
}

// multi is the types of an expression that yields several values.
func (g *gen) multi(e ast.Expr, sc *scope) []*tref {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return g.multi(e.X, sc)
	case *ast.CallExpr:
		return g.callResults(e, sc)
	case *ast.IndexExpr, *ast.TypeAssertExpr:
		return []*tref{g.typeOf(e, sc), universe("bool")}
	}
	return nil
}

// deref strips pointers.
func (g *gen) deref(t *tref) *tref {
	for t != nil {
		p, ok := t.x.(*ast.StarExpr)
		if !ok {
			if pe, ok := t.x.(*ast.ParenExpr); ok {
				t = &tref{pe.X, t.f}
				continue
			}
			return t
		}
		t = &tref{p.X, t.f}
	}
	return nil
}

// named is the declaration of a named type of the module.
func (g *gen) named(t *tref) *typeDecl {
	if t == nil || t.f == nil {
		return nil
	}
	p, n := t.f.namedType(t.x)
	if p == nil {
		return nil
	}
	if _, isPtr := t.x.(*ast.StarExpr); isPtr {
		return nil
	}
	return p.types[n]
}

// underlying resolves named types of the module to their definitions.
func (g *gen) underlying(t *tref) *tref {
	for i := 0; t != nil && i < 10; i++ {
		if pe, ok := t.x.(*ast.ParenExpr); ok {
			t = &tref{pe.X, t.f}
			continue
		}
		td := g.named(t)
		if td == nil {
			return t
		}
		t = &tref{td.spec.Type, td.file}
	}
	return t
}

func (g *gen) isInterface(t *tref) bool {
	u := g.underlying(t)
	if u == nil {
		return false
	}
	switch x := u.x.(type) {
	case *ast.InterfaceType:
		return true
	case *ast.Ident:
		return x.Name == "any"
	}
	return false
}

// typeKey names a type for comparisons: "net/http.ResponseWriter",
// "*net/http.Request", "int".
func (g *gen) typeKey(t *tref) string {
	if t == nil {
		return ""
	}
	switch x := t.x.(type) {
	case *ast.StarExpr:
		if k := g.typeKey(&tref{x.X, t.f}); k != "" {
			return "*" + k
		}
	case *ast.ParenExpr:
		return g.typeKey(&tref{x.X, t.f})
	case *ast.Ident:
		if t.f != nil && t.f.pkg.types[x.Name] != nil {
			return t.f.pkg.path + "." + x.Name
		}
		return x.Name
	case *ast.SelectorExpr:
		if id, ok := x.X.(*ast.Ident); ok && t.f != nil {
			if ip, ok := t.f.imports[id.Name]; ok {
				return ip + "." + x.Sel.Name
			}
		}
	}
	return ""
}

// fieldType is the type of a struct field (promoted ones included).
func (g *gen) fieldType(t *tref, name string) *tref {
	return g.fieldTypeDepth(t, name, 0)
}

func (g *gen) fieldTypeDepth(t *tref, name string, depth int) *tref {
	if depth > 5 {
		return nil
	}
	u := g.underlying(g.deref(t))
	if u == nil {
		return nil
	}
	st, ok := u.x.(*ast.StructType)
	if !ok {
		return nil
	}
	var embedded []*tref
	for _, fld := range st.Fields.List {
		if len(fld.Names) == 0 {
			et := &tref{fld.Type, u.f}
			if embeddedName(fld.Type) == name {
				return et
			}
			embedded = append(embedded, et)
			continue
		}
		for _, n := range fld.Names {
			if n.Name == name {
				return &tref{fld.Type, u.f}
			}
		}
	}
	for _, et := range embedded {
		if ft := g.fieldTypeDepth(et, name, depth+1); ft != nil {
			return ft
		}
	}
	return nil
}

func embeddedName(t ast.Expr) string {
	switch t := t.(type) {
	case *ast.StarExpr:
		return embeddedName(t.X)
	case *ast.Ident:
		return t.Name
	case *ast.SelectorExpr:
		return t.Sel.Name
	}
	return ""
}

// field is one parameter or result, with the file its type is in.
type field struct {
	name string
	typ  ast.Expr
}

func fields(fl *ast.FieldList) []field {
	if fl == nil {
		return nil
	}
	var out []field
	for _, f := range fl.List {
		if len(f.Names) == 0 {
			out = append(out, field{typ: f.Type})
			continue
		}
		for _, n := range f.Names {
			out = append(out, field{name: n.Name, typ: f.Type})
		}
	}
	return out
}

func typeParams(ft *ast.FuncType, recv *ast.FieldList) map[string]bool {
	out := map[string]bool{}
	if ft.TypeParams != nil {
		for _, f := range fields(ft.TypeParams) {
			out[f.name] = true
		}
	}
	if recv != nil && len(recv.List) == 1 {
		var idx []ast.Expr
		switch t := deStar(recv.List[0].Type).(type) {
		case *ast.IndexExpr:
			idx = []ast.Expr{t.Index}
		case *ast.IndexListExpr:
			idx = t.Indices
		}
		for _, x := range idx {
			if id, ok := x.(*ast.Ident); ok {
				out[id.Name] = true
			}
		}
	}
	return out
}

func deStar(t ast.Expr) ast.Expr {
	if s, ok := t.(*ast.StarExpr); ok {
		return s.X
	}
	return t
}

func resultsOf(ft *ast.FuncType, f *file, tparams map[string]bool) []*tref {
	var out []*tref
	for _, r := range fields(ft.Results) {
		if id, ok := r.typ.(*ast.Ident); ok && tparams[id.Name] {
			out = append(out, nil)
			continue
		}
		out = append(out, &tref{r.typ, f})
	}
	return out
}

var builtinTypes = map[string]bool{
	"bool": true, "string": true, "int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true,
	"byte": true, "rune": true, "float32": true, "float64": true, "complex64": true, "complex128": true,
	"error": true, "any": true,
}

// isTypeExpr reports whether e names a type (for conversions).
func (g *gen) isTypeExpr(e ast.Expr, sc *scope) bool {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return g.isTypeExpr(e.X, sc)
	case *ast.Ident:
		if sc.lookup(e.Name) != nil {
			return false
		}
		return sc.f.pkg.types[e.Name] != nil || builtinTypes[e.Name] && sc.f.pkg.funcs[e.Name] == nil
	case *ast.SelectorExpr:
		if ip, ok := sc.importOf(e.X); ok {
			if p, _ := g.mod.load(ip); p != nil {
				return p.types[e.Sel.Name] != nil
			}
		}
	case *ast.ArrayType, *ast.MapType, *ast.StarExpr, *ast.FuncType, *ast.InterfaceType, *ast.StructType, *ast.ChanType:
		return true
	}
	return false
}

// callResults is the result types of a call.
func (g *gen) callResults(call *ast.CallExpr, sc *scope) []*tref {
	if g.isTypeExpr(call.Fun, sc) {
		return []*tref{{call.Fun, sc.f}}
	}
	if id, ok := call.Fun.(*ast.Ident); ok && sc.lookup(id.Name) == nil && sc.f.pkg.funcs[id.Name] == nil {
		switch id.Name {
		case "make":
			if len(call.Args) > 0 {
				return []*tref{{call.Args[0], sc.f}}
			}
		case "new":
			if len(call.Args) > 0 {
				return []*tref{{&ast.StarExpr{X: call.Args[0]}, sc.f}}
			}
		case "append", "min", "max":
			if len(call.Args) > 0 {
				return []*tref{g.typeOf(call.Args[0], sc)}
			}
		case "len", "cap", "copy":
			return []*tref{universe("int")}
		}
	}
	if t := g.wellKnownCall(call, sc); t != nil {
		return []*tref{t}
	}
	c := g.resolveFunc(call.Fun, sc)
	switch {
	case c.fd != nil:
		return resultsOf(c.fd.decl.Type, c.fd.file, typeParams(c.fd.decl.Type, c.fd.decl.Recv))
	case c.lit != nil:
		return resultsOf(c.lit.Type, c.litSc.f, nil)
	case c.ft != nil:
		return resultsOf(c.ft.x.(*ast.FuncType), c.ft.f, nil)
	}
	return nil
}

// callee is what a call calls: a declared function or method, a function
// literal (with the scope it was written in), or a value of function type.
type callee struct {
	fd    *funcDecl
	recv  ast.Expr // the receiver expression of a method call
	recvS *scope
	lit   *ast.FuncLit
	litSc *scope
	ft    *tref // a FuncType
}

func (g *gen) resolveFunc(e ast.Expr, sc *scope) callee {
	g.depth++
	defer func() { g.depth-- }()
	if g.depth > maxDepth {
		return callee{}
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return g.resolveFunc(e.X, sc)
	case *ast.FuncLit:
		return callee{lit: e, litSc: sc}
	case *ast.Ident:
		if b := sc.lookup(e.Name); b != nil {
			if b.arg != nil {
				if c := g.resolveFunc(b.arg, b.argSc); c != (callee{}) {
					return c
				}
			}
			if b.rhs != nil && len(b.rhs) == b.n && b.idx < len(b.rhs) {
				if c := g.resolveFunc(b.rhs[b.idx], b.sc); c != (callee{}) {
					return c
				}
			}
			if u := g.underlying(g.bindingType(b)); u != nil {
				if _, ok := u.x.(*ast.FuncType); ok {
					return callee{ft: u}
				}
			}
			return callee{}
		}
		if fd := sc.f.pkg.funcs[e.Name]; fd != nil {
			return callee{fd: fd}
		}
	case *ast.SelectorExpr:
		if ip, ok := sc.importOf(e.X); ok {
			if p, _ := g.mod.load(ip); p != nil {
				if fd := p.funcs[e.Sel.Name]; fd != nil {
					return callee{fd: fd}
				}
			}
			return callee{}
		}
		t := g.typeOf(e.X, sc)
		if td := g.named(g.deref(t)); td != nil {
			if m := td.pkg.method(td.spec.Name.Name, e.Sel.Name, 0); m != nil {
				return callee{fd: m, recv: e.X, recvS: sc}
			}
		}
		if u := g.underlying(g.deref(t)); u != nil {
			if it, ok := u.x.(*ast.InterfaceType); ok {
				for _, m := range it.Methods.List {
					for _, n := range m.Names {
						if n.Name == e.Sel.Name {
							return callee{ft: &tref{m.Type, u.f}}
						}
					}
				}
			}
		}
		if ft := g.underlying(g.fieldType(t, e.Sel.Name)); ft != nil {
			if _, ok := ft.x.(*ast.FuncType); ok {
				return callee{ft: ft}
			}
		}
		if t == nil { // unknown receiver: a method name unique in the package
			var found *funcDecl
			for _, ms := range sc.f.pkg.methods {
				if m := ms[e.Sel.Name]; m != nil {
					if found != nil {
						return callee{}
					}
					found = m
				}
			}
			if found != nil {
				return callee{fd: found, recv: e.X, recvS: sc}
			}
		}
	}
	return callee{}
}

// constOf evaluates a constant expression: a string, an int64 or a bool.
// Variables are not constants, except a parameter bound to a constant
// argument at the call being followed.
func (g *gen) constOf(e ast.Expr, sc *scope) (any, bool) {
	g.depth++
	defer func() { g.depth-- }()
	if g.depth > maxDepth || e == nil {
		return nil, false
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return g.constOf(e.X, sc)
	case *ast.BasicLit:
		switch e.Kind {
		case token.STRING:
			s, err := strconv.Unquote(e.Value)
			return s, err == nil
		case token.INT:
			n, err := strconv.ParseInt(strings.ReplaceAll(e.Value, "_", ""), 0, 64)
			return n, err == nil
		}
	case *ast.Ident:
		if b := sc.lookup(e.Name); b != nil {
			switch {
			case b.arg != nil:
				return g.constOf(b.arg, b.argSc)
			case b.konst && len(b.rhs) == b.n && b.idx < len(b.rhs):
				return g.constOf(b.rhs[b.idx], b.sc)
			}
			return nil, false
		}
		switch e.Name {
		case "true":
			return true, true
		case "false":
			return false, true
		}
		if v := sc.f.pkg.values[e.Name]; v != nil && v.isConst && len(v.spec.Values) == len(v.spec.Names) {
			return g.constOf(v.spec.Values[v.idx], newScope(nil, v.file))
		}
	case *ast.SelectorExpr:
		ip, ok := sc.importOf(e.X)
		if !ok {
			return nil, false
		}
		if ip == "net/http" {
			if n, ok := httpStatus[e.Sel.Name]; ok {
				return int64(n), true
			}
			if m, ok := strings.CutPrefix(e.Sel.Name, "Method"); ok && m != "" {
				return strings.ToUpper(m), true
			}
			return nil, false
		}
		if p, _ := g.mod.load(ip); p != nil {
			if v := p.values[e.Sel.Name]; v != nil && v.isConst && len(v.spec.Values) == len(v.spec.Names) {
				return g.constOf(v.spec.Values[v.idx], newScope(nil, v.file))
			}
		}
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			if v, ok := g.constOf(e.X, sc); ok {
				if b, ok := v.(bool); ok {
					return !b, true
				}
			}
		}
	case *ast.BinaryExpr:
		x, okx := g.constOf(e.X, sc)
		y, oky := g.constOf(e.Y, sc)
		if !okx || !oky {
			// false && anything, true || anything
			if b, ok := x.(bool); okx && ok && (e.Op == token.LAND && !b || e.Op == token.LOR && b) {
				return b, true
			}
			return nil, false
		}
		return binaryConst(e.Op, x, y)
	}
	return nil, false
}

func binaryConst(op token.Token, x, y any) (any, bool) {
	switch x := x.(type) {
	case string:
		y, ok := y.(string)
		if !ok {
			return nil, false
		}
		switch op {
		case token.ADD:
			return x + y, true
		case token.EQL:
			return x == y, true
		case token.NEQ:
			return x != y, true
		}
	case int64:
		y, ok := y.(int64)
		if !ok {
			return nil, false
		}
		switch op {
		case token.ADD:
			return x + y, true
		case token.SUB:
			return x - y, true
		case token.MUL:
			return x * y, true
		case token.SHL:
			return x << y, true
		case token.EQL:
			return x == y, true
		case token.NEQ:
			return x != y, true
		case token.LSS:
			return x < y, true
		case token.GTR:
			return x > y, true
		case token.LEQ:
			return x <= y, true
		case token.GEQ:
			return x >= y, true
		}
	case bool:
		y, ok := y.(bool)
		if !ok {
			return nil, false
		}
		switch op {
		case token.LAND:
			return x && y, true
		case token.LOR:
			return x || y, true
		case token.EQL:
			return x == y, true
		case token.NEQ:
			return x != y, true
		}
	}
	return nil, false
}

func (g *gen) constString(e ast.Expr, sc *scope) (string, bool) {
	v, ok := g.constOf(e, sc)
	s, isStr := v.(string)
	return s, ok && isStr
}

func (g *gen) constInt(e ast.Expr, sc *scope) (int, bool) {
	v, ok := g.constOf(e, sc)
	n, isInt := v.(int64)
	return int(n), ok && isInt
}

// httpStatus is net/http's status constants.
var httpStatus = map[string]int{
	"StatusContinue": 100, "StatusSwitchingProtocols": 101, "StatusProcessing": 102, "StatusEarlyHints": 103,
	"StatusOK": 200, "StatusCreated": 201, "StatusAccepted": 202, "StatusNonAuthoritativeInfo": 203,
	"StatusNoContent": 204, "StatusResetContent": 205, "StatusPartialContent": 206, "StatusMultiStatus": 207,
	"StatusAlreadyReported": 208, "StatusIMUsed": 226,
	"StatusMultipleChoices": 300, "StatusMovedPermanently": 301, "StatusFound": 302, "StatusSeeOther": 303,
	"StatusNotModified": 304, "StatusUseProxy": 305, "StatusTemporaryRedirect": 307, "StatusPermanentRedirect": 308,
	"StatusBadRequest": 400, "StatusUnauthorized": 401, "StatusPaymentRequired": 402, "StatusForbidden": 403,
	"StatusNotFound": 404, "StatusMethodNotAllowed": 405, "StatusNotAcceptable": 406, "StatusProxyAuthRequired": 407,
	"StatusRequestTimeout": 408, "StatusConflict": 409, "StatusGone": 410, "StatusLengthRequired": 411,
	"StatusPreconditionFailed": 412, "StatusRequestEntityTooLarge": 413, "StatusRequestURITooLong": 414,
	"StatusUnsupportedMediaType": 415, "StatusRequestedRangeNotSatisfiable": 416, "StatusExpectationFailed": 417,
	"StatusTeapot": 418, "StatusMisdirectedRequest": 421, "StatusUnprocessableEntity": 422, "StatusLocked": 423,
	"StatusFailedDependency": 424, "StatusTooEarly": 425, "StatusUpgradeRequired": 426, "StatusPreconditionRequired": 428,
	"StatusTooManyRequests": 429, "StatusRequestHeaderFieldsTooLarge": 431, "StatusUnavailableForLegalReasons": 451,
	"StatusInternalServerError": 500, "StatusNotImplemented": 501, "StatusBadGateway": 502, "StatusServiceUnavailable": 503,
	"StatusGatewayTimeout": 504, "StatusHTTPVersionNotSupported": 505, "StatusVariantAlsoNegotiates": 506,
	"StatusInsufficientStorage": 507, "StatusLoopDetected": 508, "StatusNotExtended": 510,
	"StatusNetworkAuthenticationRequired": 511,
}

// knownResults are the result types of functions and methods from outside
// the module that answers are commonly built with.
var knownResults = map[string]string{
	"fmt.Sprint":                  "string",
	"fmt.Sprintf":                 "string",
	"strconv.Itoa":                "string",
	"strconv.FormatInt":           "string",
	"strconv.FormatUint":          "string",
	"strconv.FormatBool":          "string",
	"strconv.Quote":               "string",
	"html.EscapeString":           "string",
	"net/url.PathEscape":          "string",
	"net/url.QueryEscape":         "string",
	"path.Join":                   "string",
	"path.Base":                   "string",
	"path.Dir":                    "string",
	"path.Ext":                    "string",
	"encoding/hex.EncodeToString": "string",
	"time.Time.UTC":               "time.Time",
	"time.Time.Local":             "time.Time",
	"time.Time.Add":               "time.Time",
	"time.Time.Truncate":          "time.Time",
	"time.Time.Round":             "time.Time",
	"time.Time.In":                "time.Time",
	"time.Time.Format":            "string",
	"time.Time.Unix":              "int64",
	"time.Time.String":            "string",
	"time.Now":                    "time.Time",
	"time.Unix":                   "time.Time",
	"github.com/ethereum/go-ethereum/common.Address.Hex":    "string",
	"github.com/ethereum/go-ethereum/common.Address.String": "string",
	"github.com/ethereum/go-ethereum/common.Hash.Hex":       "string",
}

func (g *gen) wellKnownCall(call *ast.CallExpr, sc *scope) *tref {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	var key string
	if ip, ok := sc.importOf(sel.X); ok {
		key = ip + "." + sel.Sel.Name
		if ip == "strings" {
			switch sel.Sel.Name {
			case "Join", "TrimSpace", "TrimPrefix", "TrimSuffix", "Trim", "ToLower", "ToUpper", "Repeat", "ReplaceAll", "Replace", "Title", "TrimLeft", "TrimRight":
				return universe("string")
			}
		}
	} else {
		key = g.typeKey(g.deref(g.typeOf(sel.X, sc)))
		if key == "" {
			return nil
		}
		key += "." + sel.Sel.Name
	}
	res, ok := knownResults[key]
	if !ok {
		return nil
	}
	if i := strings.LastIndex(res, "."); i >= 0 {
		return &tref{x: &ast.SelectorExpr{X: ast.NewIdent("time"), Sel: ast.NewIdent(res[i+1:])}, f: g.timeFile()}
	}
	return universe(res)
}

// timeFile resolves the time.Time made up by wellKnownCall.
func (g *gen) timeFile() *file {
	if g.tf == nil {
		g.tf = &file{pkg: &pkg{mod: g.mod, types: map[string]*typeDecl{}}, imports: map[string]string{"time": "time"}}
	}
	return g.tf
}
