package openapi

import (
	"go/ast"
	"mime"
	"sort"
	"strings"
)

// op is what the walk of one handler found.
type op struct {
	responses map[int]*response
	request   []schema
	query     map[string]string // name to type ("string", "integer", "boolean")
	queryKeys []string          // in the order first read
	headers   map[string]bool   // response headers worth documenting
	ctypes    []string          // Content-Types set by hand
	raw       bool              // writes a body other than JSON
}

type response struct {
	schemas []schema
	empty   bool
}

func newOp() *op {
	return &op{responses: map[int]*response{}, query: map[string]string{}, headers: map[string]bool{}}
}

func (o *op) respond(status int, s schema) {
	r := o.responses[status]
	if r == nil {
		r = &response{}
		o.responses[status] = r
	}
	if s == nil {
		r.empty = true
		return
	}
	k := schemaKey(s)
	for _, have := range r.schemas {
		if schemaKey(have) == k {
			return
		}
	}
	r.schemas = append(r.schemas, s)
}

func (o *op) readQuery(name, typ string) {
	if _, ok := o.query[name]; !ok {
		o.queryKeys = append(o.queryKeys, name)
		o.query[name] = "string"
	}
	if typ != "" {
		o.query[name] = typ
	}
}

// documentedHeaders are the response headers the reference lists.
func documentedHeader(name string) bool {
	switch strings.ToLower(name) {
	case "link", "x-total-count", "retry-after", "location":
		return true
	}
	return false
}

// sinks are the functions the walk does not follow but reads: the one
// that writes a value as JSON with a status, and the one that decodes the
// request body into a value.
type sink struct {
	json   bool // a JSON writer: writer, status and value parameters
	decode bool // a body decoder: the value parameter
	status int  // the status parameter's index, -1: 200
	value  int
}

func (g *gen) sinkOf(fd *funcDecl) *sink {
	if s, ok := g.sinks[fd]; ok {
		return s
	}
	g.sinks[fd] = nil
	params := fields(fd.decl.Type.Params)
	idx := map[string]int{}
	writer, request := "", false
	for i, p := range params {
		idx[p.name] = i
		switch g.typeKey(&tref{p.typ, fd.file}) {
		case "net/http.ResponseWriter":
			writer = p.name
		case "*net/http.Request":
			request = true
		}
	}
	jsonName := ""
	for local, ip := range fd.file.imports {
		if ip == "encoding/json" {
			jsonName = local
		}
	}
	if jsonName == "" || fd.decl.Body == nil {
		return nil
	}
	isJSON := func(e ast.Expr, fn string) bool {
		sel, ok := e.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != fn {
			return false
		}
		id, ok := sel.X.(*ast.Ident)
		return ok && id.Name == jsonName
	}
	paramIdx := func(e ast.Expr) int {
		if u, ok := e.(*ast.UnaryExpr); ok {
			e = u.X
		}
		if id, ok := e.(*ast.Ident); ok {
			if i, ok := idx[id.Name]; ok {
				return i
			}
		}
		return -1
	}
	var s sink
	s.status, s.value = -1, -1
	ast.Inspect(fd.decl.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		switch {
		case writer != "" && sel.Sel.Name == "Encode" && len(call.Args) == 1:
			// json.NewEncoder(w).Encode(v)
			if enc, ok := sel.X.(*ast.CallExpr); ok && isJSON(enc.Fun, "NewEncoder") && len(enc.Args) == 1 {
				if id, ok := enc.Args[0].(*ast.Ident); ok && id.Name == writer {
					if i := paramIdx(call.Args[0]); i >= 0 {
						s.json, s.value = true, i
					}
				}
			}
		case writer != "" && sel.Sel.Name == "WriteHeader" && len(call.Args) == 1:
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == writer {
				s.status = paramIdx(call.Args[0])
			}
		case request && isJSON(call.Fun, "Unmarshal") && len(call.Args) == 2:
			if i := paramIdx(call.Args[1]); i >= 0 {
				s.decode, s.value = true, i
			}
		case request && sel.Sel.Name == "Decode" && len(call.Args) == 1:
			if dec, ok := sel.X.(*ast.CallExpr); ok && isJSON(dec.Fun, "NewDecoder") {
				if i := paramIdx(call.Args[0]); i >= 0 {
					s.decode, s.value = true, i
				}
			}
		}
		return true
	})
	if !s.json && !s.decode {
		return nil
	}
	g.sinks[fd] = &s
	return &s
}

// notWrites are calls that take the ResponseWriter without writing a body.
var notWrites = map[string]bool{
	"MaxBytesReader": true, "SetCookie": true, "ClearCookie": true, "Error": true, "Redirect": true,
	"NewResponseController": true, "StartSession": true,
}

const maxFollow = 8

// analyze walks a handler, following the package's functions it hands its
// ResponseWriter or Request to, and notes what it answers and reads.
func (g *gen) analyze(h *handlerRef) *op {
	o := newOp()
	stack := map[*funcDecl]bool{}
	w := &walker{g: g}
	w.onCall = func(call *ast.CallExpr, sc *scope) bool {
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
			if g.isWriter(sel.X, sc) {
				switch sel.Sel.Name {
				case "WriteHeader":
					if len(call.Args) == 1 {
						if code, ok := g.constInt(call.Args[0], sc); ok && code >= 200 && code < 300 {
							o.respond(code, nil)
						}
					}
				case "Write":
					o.raw = true
				}
				return true
			}
			if sel.Sel.Name == "Set" || sel.Sel.Name == "Add" {
				if g.isHeaderOfWriter(sel.X, sc) && len(call.Args) == 2 {
					if name, ok := g.constString(call.Args[0], sc); ok {
						if strings.EqualFold(name, "Content-Type") {
							if v, ok := g.constString(call.Args[1], sc); ok {
								if mt, _, err := mime.ParseMediaType(v); err == nil {
									o.ctypes = append(o.ctypes, mt)
								}
							}
						} else if documentedHeader(name) {
							o.headers[canonicalHeader(name)] = true
						}
					}
				}
			}
			if name, ok := g.queryRead(call, sc); ok {
				o.readQuery(name, "")
				return true
			}
			if ip, ok := sc.importOf(sel.X); ok && ip == "strconv" && len(call.Args) > 0 {
				typ := ""
				switch sel.Sel.Name {
				case "Atoi", "ParseInt", "ParseUint":
					typ = "integer"
				case "ParseBool":
					typ = "boolean"
				case "ParseFloat":
					typ = "number"
				}
				if typ != "" {
					if name := g.queryParamOf(call.Args[0], sc); name != "" {
						o.readQuery(name, typ)
					}
				}
			}
		}
		c := g.resolveFunc(call.Fun, sc)
		hasWriter, hasRequest := false, false
		for _, a := range call.Args {
			hasWriter = hasWriter || g.isWriter(a, sc)
			hasRequest = hasRequest || g.isRequest(a, sc)
		}
		if c.fd == nil || !g.inAPI(c.fd.pkg) {
			if hasWriter && !notWrites[calleeName(call.Fun)] {
				o.raw = true // io.Copy(w, ...), gitstore.WriteDiff(..., w)
			}
			return true
		}
		if s := g.sinkOf(c.fd); s != nil {
			if s.value >= len(call.Args) {
				return true
			}
			v := call.Args[s.value]
			switch {
			case s.json:
				if len(call.Args) == 0 || !g.isWriter(call.Args[0], sc) && !anyWriter(g, call, sc) {
					return true // written to something else
				}
				status := 200
				if s.status >= 0 {
					code, ok := g.constInt(call.Args[s.status], sc)
					if !ok {
						return true // an error's status, worked out at run time
					}
					status = code
				}
				if status >= 200 && status < 300 {
					o.respond(status, g.schemaOfExpr(v, sc))
				}
			case s.decode:
				if u, ok := v.(*ast.UnaryExpr); ok {
					v = u.X
				}
				o.requestBody(g.schemaOfExpr(v, sc))
			}
			return true
		}
		if (hasWriter || hasRequest) && !stack[c.fd] && len(stack) < maxFollow {
			stack[c.fd] = true
			w.body(c.fd.decl.Body, g.bindCall(c, call, sc))
			delete(stack, c.fd)
		}
		return true
	}
	switch {
	case h.decl != nil:
		s := g.bindCall(callee{fd: h.decl}, &ast.CallExpr{}, nil)
		for _, p := range fields(h.decl.decl.Type.Params) {
			if p.name != "" && p.name != "_" {
				s.vars[p.name] = g.paramBinding(p.typ, h.decl.file)
			}
		}
		stack[h.decl] = true
		w.body(h.decl.decl.Body, s)
	case h.lit != nil:
		w.funcLit(h.lit, h.litScope, nil)
	}
	if o.raw {
		types := o.ctypes
		if len(types) == 0 {
			types = []string{"application/octet-stream"}
		}
		sort.Strings(types)
		o.ctypes = dedupe(types)
		if _, ok := o.responses[200]; !ok {
			o.respond(200, nil)
		}
	}
	return o
}

func anyWriter(g *gen, call *ast.CallExpr, sc *scope) bool {
	for _, a := range call.Args {
		if g.isWriter(a, sc) {
			return true
		}
	}
	return false
}

func (o *op) requestBody(s schema) {
	k := schemaKey(s)
	for _, have := range o.request {
		if schemaKey(have) == k {
			return
		}
	}
	o.request = append(o.request, s)
}

// isHeaderOfWriter matches w.Header() and h where h := w.Header().
func (g *gen) isHeaderOfWriter(e ast.Expr, sc *scope) bool {
	switch x := e.(type) {
	case *ast.CallExpr:
		sel, ok := x.Fun.(*ast.SelectorExpr)
		return ok && sel.Sel.Name == "Header" && g.isWriter(sel.X, sc)
	case *ast.Ident:
		b := sc.lookup(x.Name)
		return b != nil && b.header
	}
	return false
}

// queryParamOf is the query parameter a value was read from.
func (g *gen) queryParamOf(e ast.Expr, sc *scope) string {
	if name, ok := g.queryRead(e, sc); ok {
		return name
	}
	if id, ok := e.(*ast.Ident); ok {
		if b := sc.lookup(id.Name); b != nil {
			return b.queryParam
		}
	}
	return ""
}

func calleeName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return x.Sel.Name
	}
	return ""
}

func canonicalHeader(name string) string {
	switch strings.ToLower(name) {
	case "x-total-count":
		return "X-Total-Count"
	case "link":
		return "Link"
	case "retry-after":
		return "Retry-After"
	case "location":
		return "Location"
	}
	return name
}

func dedupe(list []string) []string {
	var out []string
	for i, s := range list {
		if i == 0 || s != list[i-1] {
			out = append(out, s)
		}
	}
	return out
}
