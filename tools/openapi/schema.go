package openapi

import (
	"encoding/json"
	"go/ast"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// schema is a JSON Schema object as OpenAPI 3.0 has it.
type schema = map[string]any

// wellKnown describes types from outside the module that API answers use.
var wellKnown = map[string]schema{
	"time.Time":     {"type": "string", "format": "date-time"},
	"time.Duration": {"type": "integer", "format": "int64", "description": "nanoseconds"},
	"github.com/ethereum/go-ethereum/common.Address": {"type": "string", "pattern": "^0x[0-9a-fA-F]{40}$",
		"description": "an account address, 0x and 40 hex digits"},
	"github.com/ethereum/go-ethereum/common.Hash":           {"type": "string", "pattern": "^0x[0-9a-fA-F]{64}$"},
	"github.com/ethereum/go-ethereum/common/hexutil.Bytes":  {"type": "string", "pattern": "^0x([0-9a-fA-F]{2})*$"},
	"github.com/ethereum/go-ethereum/common/hexutil.Big":    {"type": "string", "pattern": "^0x[0-9a-fA-F]+$"},
	"github.com/ethereum/go-ethereum/common/hexutil.Uint64": {"type": "string", "pattern": "^0x[0-9a-fA-F]+$"},
	"math/big.Int":             {"type": "integer"},
	"encoding/json.RawMessage": {},
	"html/template.HTML":       {"type": "string"},
	"net/url.Values":           {"type": "object", "additionalProperties": schema{"type": "array", "items": schema{"type": "string"}}},
}

func basicSchema(name string) schema {
	switch name {
	case "string":
		return schema{"type": "string"}
	case "bool":
		return schema{"type": "boolean"}
	case "int", "uint", "int8", "int16", "uint8", "uint16", "byte", "uintptr":
		return schema{"type": "integer"}
	case "int32", "rune", "uint32":
		return schema{"type": "integer", "format": "int32"}
	case "int64", "uint64":
		return schema{"type": "integer", "format": "int64"}
	case "float32":
		return schema{"type": "number", "format": "float"}
	case "float64":
		return schema{"type": "number", "format": "double"}
	}
	return schema{}
}

// schemaOf is the JSON schema of what encoding/json makes of a value of
// the type.
func (g *gen) schemaOf(t *tref) schema {
	g.depth++
	defer func() { g.depth-- }()
	if t == nil || g.depth > maxDepth {
		return schema{}
	}
	switch x := t.x.(type) {
	case *ast.ParenExpr:
		return g.schemaOf(&tref{x.X, t.f})
	case *ast.Ident:
		if t.f != nil {
			if td := t.f.pkg.types[x.Name]; td != nil {
				return g.namedSchema(td)
			}
		}
		return basicSchema(x.Name)
	case *ast.SelectorExpr:
		if id, ok := x.X.(*ast.Ident); ok && t.f != nil {
			ip := t.f.imports[id.Name]
			if s, ok := wellKnown[ip+"."+x.Sel.Name]; ok {
				return clone(s)
			}
			if p, _ := g.mod.load(ip); p != nil {
				if td := p.types[x.Sel.Name]; td != nil {
					return g.namedSchema(td)
				}
			}
		}
		return schema{}
	case *ast.StarExpr:
		return nullable(g.schemaOf(&tref{x.X, t.f}))
	case *ast.ArrayType:
		if id, ok := x.Elt.(*ast.Ident); ok && x.Len == nil && (id.Name == "byte" || id.Name == "uint8") {
			return schema{"type": "string", "format": "byte"}
		}
		return schema{"type": "array", "items": g.schemaOf(&tref{x.Elt, t.f})}
	case *ast.MapType:
		return schema{"type": "object", "additionalProperties": g.schemaOf(&tref{x.Value, t.f})}
	case *ast.StructType:
		return g.structSchema(x, t.f)
	case *ast.IndexExpr:
		if g.encodedAs(&tref{x.X, t.f}) {
			return g.schemaOf(&tref{x.Index, t.f})
		}
	}
	return schema{}
}

// encodedAs reports whether t names a generic type declared as bytes of
// its one type parameter (type EncodedJSON[T any] []byte): a T already
// encoded, which is documented as the T.
func (g *gen) encodedAs(t *tref) bool {
	td := g.named(t)
	if td == nil || td.spec.TypeParams == nil || td.spec.TypeParams.NumFields() != 1 {
		return false
	}
	arr, ok := td.spec.Type.(*ast.ArrayType)
	if !ok || arr.Len != nil {
		return false
	}
	id, ok := arr.Elt.(*ast.Ident)
	return ok && id.Name == "byte"
}

func clone(s schema) schema {
	out := make(schema, len(s))
	for k, v := range s {
		out[k] = v
	}
	return out
}

// nullable marks a schema as possibly null. OpenAPI 3.0 only honours
// nullable beside a type, so a schema without one (any value) stays as it
// is, and a reference, beside which everything is ignored, is wrapped
// with the type it names: components are structs, so objects.
func nullable(s schema) schema {
	if _, ok := s["$ref"]; ok {
		return schema{"type": "object", "allOf": []any{s}, "nullable": true}
	}
	if _, typed := s["type"]; !typed {
		return s
	}
	s = clone(s)
	s["nullable"] = true
	return s
}

func (g *gen) namedSchema(td *typeDecl) schema {
	if td.spec.TypeParams != nil {
		return schema{}
	}
	if td.pkg.methods[td.spec.Name.Name]["MarshalJSON"] != nil {
		return schema{}
	}
	if td.pkg.methods[td.spec.Name.Name]["MarshalText"] != nil {
		return schema{"type": "string"}
	}
	if _, ok := td.spec.Type.(*ast.StructType); ok && td.spec.Assign == 0 {
		return schema{"$ref": "#/components/schemas/" + g.component(td)}
	}
	if g.structAlias(td) != nil {
		return schema{"$ref": "#/components/schemas/" + g.component(td)}
	}
	if g.visiting[td] {
		return schema{}
	}
	g.visiting[td] = true
	defer delete(g.visiting, td)
	return g.schemaOf(&tref{td.spec.Type, td.file})
}

// structAlias is the plain struct an alias (type A = pkg.B) stands for,
// or nil. The alias is documented under its own name, which is the one
// the API uses: index.User is declared in index/readdb and keeps the
// name index.User.
func (g *gen) structAlias(td *typeDecl) *typeDecl {
	if td.spec.Assign == 0 || td.spec.TypeParams != nil {
		return nil
	}
	target := g.named(&tref{td.spec.Type, td.file})
	if target == nil || target == td || target.spec.Assign != 0 || target.spec.TypeParams != nil {
		return nil
	}
	if _, ok := target.spec.Type.(*ast.StructType); !ok {
		return nil
	}
	if m := target.pkg.methods[target.spec.Name.Name]; m["MarshalJSON"] != nil || m["MarshalText"] != nil {
		return nil
	}
	return target
}

// component adds a named struct to components.schemas once and returns
// its name: the API package's types by their own name (a JSON suffix
// dropped, capitalised), other packages' as package.Type; an alias of a
// struct by the alias's name (structAlias), and a struct an API package
// aliases by that alias's name wherever it appears (apiAlias).
func (g *gen) component(td *typeDecl) string {
	if a := g.apiAlias(td); a != nil {
		td = a
	}
	if name, ok := g.compNames[td]; ok {
		return name
	}
	name := g.componentName(td)
	g.compNames[td] = name
	g.compOwner[name] = td
	g.components[name] = schema{} // a placeholder while the fields are made: types may refer to themselves
	src, doc := td, td.doc
	if target := g.structAlias(td); target != nil {
		src = target
		if doc == "" {
			doc = target.doc
		}
	}
	var s schema
	if build := builtComponents[src.pkg.path+"."+src.spec.Name.Name]; build != nil {
		s = build(g, src, name)
	} else {
		s = g.structSchema(src.spec.Type.(*ast.StructType), src.file)
	}
	if doc := cleanDoc(doc, td.spec.Name.Name); doc != "" {
		s["description"] = doc
	}
	g.components[name] = s
	return name
}

// apiAlias is the alias (type X = pkg.T) an API package declares for td, a
// struct of another package, or nil. The API keeps Gitea's shapes in a
// package of their own (internal/gitea/structs, which the webhooks share)
// and names them with aliases; a field of one shape that holds another
// reaches the other by its own name, and is documented under the alias's
// too, so moving a shape out of the API renames no schema. Of two aliases
// of one struct, the first by package path and name wins.
func (g *gen) apiAlias(td *typeDecl) *typeDecl {
	if g.inAPI(td.pkg) {
		return nil
	}
	paths := make([]string, 0, len(g.mod.pkgs))
	for path, p := range g.mod.pkgs {
		if p != nil && !g.scanned[p] && g.inAPI(p) {
			paths = append(paths, path)
		}
	}
	sort.Strings(paths)
	for _, path := range paths {
		p := g.mod.pkgs[path]
		g.scanned[p] = true
		names := make([]string, 0, len(p.types))
		for n, t := range p.types {
			if t.spec.Assign != 0 {
				names = append(names, n)
			}
		}
		sort.Strings(names)
		for _, n := range names {
			a := p.types[n]
			if target := g.structAlias(a); target != nil && !g.inAPI(target.pkg) && g.aliases[target] == nil {
				g.aliases[target] = a
			}
		}
	}
	return g.aliases[td]
}

func (g *gen) componentName(td *typeDecl) string {
	n := td.spec.Name.Name
	var candidates []string
	if g.inAPI(td.pkg) {
		if trimmed := strings.TrimSuffix(n, "JSON"); trimmed != "" {
			candidates = append(candidates, upperFirst(trimmed))
		}
		candidates = append(candidates, upperFirst(n))
	} else {
		candidates = append(candidates, td.pkg.name+"."+n)
		rel := strings.TrimPrefix(strings.TrimPrefix(td.pkg.path, g.mod.path), "/")
		candidates = append(candidates, strings.ReplaceAll(strings.TrimPrefix(rel, "internal/"), "/", ".")+"."+n)
	}
	for _, c := range candidates {
		if _, taken := g.compOwner[c]; !taken {
			return c
		}
	}
	for i := 2; ; i++ {
		c := candidates[0] + strconv.Itoa(i)
		if _, taken := g.compOwner[c]; !taken {
			return c
		}
	}
}

func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// structSchema follows encoding/json: exported fields by their json tag
// name (or field name), "-" left out, embedded structs' fields promoted.
func (g *gen) structSchema(st *ast.StructType, f *file) schema {
	props := schema{}
	var embedded []*tref
	for _, fld := range st.Fields.List {
		name, opts, skip := jsonTag(fld.Tag)
		if skip {
			continue
		}
		if len(fld.Names) == 0 {
			if name == "" {
				embedded = append(embedded, &tref{fld.Type, f})
				continue
			}
			props[name] = g.fieldSchema(fld, f, opts)
			continue
		}
		for _, n := range fld.Names {
			if !ast.IsExported(n.Name) {
				continue
			}
			switch fld.Type.(type) {
			case *ast.FuncType, *ast.ChanType:
				continue
			}
			key := name
			if key == "" {
				key = n.Name
			}
			props[key] = g.fieldSchema(fld, f, opts)
		}
	}
	for _, et := range embedded {
		u := g.underlying(g.deref(et))
		if u == nil {
			continue
		}
		inner, ok := u.x.(*ast.StructType)
		if !ok {
			continue
		}
		if td := g.named(g.deref(et)); td != nil {
			if g.visiting[td] {
				continue
			}
			g.visiting[td] = true
		}
		sub := g.structSchema(inner, u.f)
		if td := g.named(g.deref(et)); td != nil {
			delete(g.visiting, td)
		}
		if sp, ok := sub["properties"].(schema); ok {
			for k, v := range sp {
				if _, have := props[k]; !have {
					props[k] = v
				}
			}
		}
	}
	out := schema{"type": "object"}
	if len(props) > 0 {
		out["properties"] = props
	}
	return out
}

func (g *gen) fieldSchema(fld *ast.Field, f *file, opts string) schema {
	var s schema
	if strings.Contains(","+opts+",", ",string,") {
		s = schema{"type": "string"}
	} else {
		s = clone(g.schemaOf(&tref{fld.Type, f}))
	}
	doc := fld.Doc.Text()
	if doc == "" {
		doc = fld.Comment.Text()
	}
	fieldName := ""
	if len(fld.Names) > 0 {
		fieldName = fld.Names[0].Name
	}
	if doc = cleanDoc(doc, fieldName); doc != "" {
		if _, isRef := s["$ref"]; isRef {
			s = schema{"allOf": []any{s}}
		}
		s["description"] = doc
	}
	return s
}

// jsonTag reads a field's json tag: its name, options, and whether the
// field is left out.
func jsonTag(tag *ast.BasicLit) (name, opts string, skip bool) {
	if tag == nil {
		return "", "", false
	}
	raw, err := strconv.Unquote(tag.Value)
	if err != nil {
		return "", "", false
	}
	v, ok := reflect.StructTag(raw).Lookup("json")
	if !ok {
		return "", "", false
	}
	if v == "-" {
		return "", "", true
	}
	name, opts, _ = strings.Cut(v, ",")
	return name, opts, false
}

// schemaOfExpr is the schema of the JSON a value encodes to: a map
// literal's keys become properties; anything else goes by its type.
func (g *gen) schemaOfExpr(e ast.Expr, sc *scope) schema {
	g.depth++
	defer func() { g.depth-- }()
	if g.depth > maxDepth {
		return schema{}
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return g.schemaOfExpr(e.X, sc)
	case *ast.UnaryExpr:
		if e.Op.String() == "&" {
			return g.schemaOfExpr(e.X, sc)
		}
	case *ast.Ident:
		if e.Name == "nil" && sc.lookup("nil") == nil {
			return schema{} // null, which OpenAPI 3.0 cannot say without a type
		}
		if b := sc.lookup(e.Name); b != nil {
			if b.arg != nil && (b.typ == nil || g.isInterface(&tref{b.typ, b.tf})) {
				return g.schemaOfExpr(b.arg, b.argSc)
			}
			if b.typ == nil && b.rhs != nil && len(b.rhs) == b.n && b.n == 1 {
				return g.schemaOfExpr(b.rhs[0], b.sc)
			}
		}
	case *ast.CompositeLit:
		if s, ok := g.mapLiteralSchema(e, sc); ok {
			return s
		}
	}
	return g.schemaOf(g.typeOf(e, sc))
}

// mapLiteralSchema describes map[string]T{"a": x, "b": y} as an object
// with properties a and b.
func (g *gen) mapLiteralSchema(lit *ast.CompositeLit, sc *scope) (schema, bool) {
	mt, ok := lit.Type.(*ast.MapType)
	if !ok || len(lit.Elts) == 0 {
		return nil, false
	}
	if k, ok := mt.Key.(*ast.Ident); !ok || k.Name != "string" {
		return nil, false
	}
	props := schema{}
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return nil, false
		}
		key, ok := g.constString(kv.Key, sc)
		if !ok {
			return nil, false
		}
		v := g.schemaOfExpr(kv.Value, sc)
		if len(v) == 0 {
			v = g.schemaOf(&tref{mt.Value, sc.f})
		}
		props[key] = v
	}
	return schema{"type": "object", "properties": props}, true
}

// sameSchema compares schemas by their JSON.
func schemaKey(s schema) string {
	b, _ := json.Marshal(s)
	return string(b)
}
