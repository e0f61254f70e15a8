package openapi

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// The generator reads Go source, never compiled packages: the API package
// itself, and, on demand, the packages of the same module its types and
// calls lead to (index, forge, auth, ...). Nothing outside the module is
// read; its types are either well known (time.Time, common.Address) or
// described as any JSON value.

// module is the Go module the API package belongs to.
type module struct {
	root string // the directory of go.mod
	path string // the module path
	fset *token.FileSet
	pkgs map[string]*pkg // by import path; nil: tried and not in the module
}

// pkg is one parsed package.
type pkg struct {
	mod     *module
	path    string // import path
	name    string
	files   []*file
	types   map[string]*typeDecl
	funcs   map[string]*funcDecl            // top-level functions
	methods map[string]map[string]*funcDecl // receiver type name, then method name
	values  map[string]*valueDecl           // package-level constants and variables
}

// file is a parsed file with the names its imports go by.
type file struct {
	pkg     *pkg
	ast     *ast.File
	imports map[string]string // local name to import path
}

type typeDecl struct {
	pkg  *pkg
	file *file
	spec *ast.TypeSpec
	doc  string
}

type funcDecl struct {
	pkg  *pkg
	file *file
	decl *ast.FuncDecl
	recv string // receiver type name, "" for a function
}

type valueDecl struct {
	file    *file
	spec    *ast.ValueSpec
	idx     int
	isConst bool
}

// findModule walks up from dir to go.mod.
func findModule(dir string) (*module, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	for d := abs; ; d = filepath.Dir(d) {
		data, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil {
			for _, line := range strings.Split(string(data), "\n") {
				if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
					p := strings.TrimSpace(rest)
					if uq, err := strconv.Unquote(p); err == nil {
						p = uq
					}
					return &module{root: d, path: p, fset: token.NewFileSet(), pkgs: map[string]*pkg{}}, nil
				}
			}
			return nil, fmt.Errorf("%s/go.mod has no module line", d)
		}
		if filepath.Dir(d) == d {
			return nil, fmt.Errorf("no go.mod above %s", abs)
		}
	}
}

// importPathOf is the import path of a directory inside the module.
func (m *module) importPathOf(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(m.root, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", fmt.Errorf("%s is outside the module at %s", dir, m.root)
	}
	if rel == "." {
		return m.path, nil
	}
	return m.path + "/" + filepath.ToSlash(rel), nil
}

// load parses the package at an import path of the module; nil when the
// path is outside the module or holds no Go files.
func (m *module) load(importPath string) (*pkg, error) {
	if p, ok := m.pkgs[importPath]; ok {
		return p, nil
	}
	m.pkgs[importPath] = nil
	var dir string
	switch {
	case importPath == m.path:
		dir = m.root
	case strings.HasPrefix(importPath, m.path+"/"):
		dir = filepath.Join(m.root, filepath.FromSlash(strings.TrimPrefix(importPath, m.path+"/")))
	default:
		return nil, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil
	}
	var names []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		names = append(names, n)
	}
	if len(names) == 0 {
		return nil, nil
	}
	sort.Strings(names)
	p := &pkg{mod: m, path: importPath, types: map[string]*typeDecl{}, funcs: map[string]*funcDecl{},
		methods: map[string]map[string]*funcDecl{}, values: map[string]*valueDecl{}}
	for _, n := range names {
		af, err := parser.ParseFile(m.fset, filepath.Join(dir, n), nil, parser.ParseComments)
		if err != nil {
			return nil, fmt.Errorf("parse %s: %w", filepath.Join(dir, n), err)
		}
		if p.name == "" {
			p.name = af.Name.Name
		}
		if af.Name.Name != p.name { // a stray main or documentation file
			continue
		}
		f := &file{pkg: p, ast: af, imports: map[string]string{}}
		for _, im := range af.Imports {
			ip, _ := strconv.Unquote(im.Path.Value)
			local := guessName(ip)
			if im.Name != nil {
				local = im.Name.Name
			}
			f.imports[local] = ip
		}
		p.files = append(p.files, f)
		p.index(f)
	}
	m.pkgs[importPath] = p
	return p, nil
}

// guessName is the name a package is usually imported by: the last element
// of its path, without a version suffix or a go- prefix or -go suffix.
func guessName(importPath string) string {
	base := path.Base(importPath)
	if len(base) > 1 && base[0] == 'v' && strings.Trim(base[1:], "0123456789") == "" {
		base = path.Base(path.Dir(importPath))
	}
	base = strings.TrimPrefix(base, "go-")
	base = strings.TrimSuffix(base, "-go")
	return strings.ReplaceAll(base, "-", "")
}

func (p *pkg) index(f *file) {
	for _, d := range f.ast.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			fd := &funcDecl{pkg: p, file: f, decl: d}
			if d.Recv == nil || len(d.Recv.List) == 0 {
				p.funcs[d.Name.Name] = fd
				continue
			}
			fd.recv = recvName(d.Recv.List[0].Type)
			if p.methods[fd.recv] == nil {
				p.methods[fd.recv] = map[string]*funcDecl{}
			}
			p.methods[fd.recv][d.Name.Name] = fd
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					doc := s.Doc
					if doc == nil && len(d.Specs) == 1 {
						doc = d.Doc
					}
					p.types[s.Name.Name] = &typeDecl{pkg: p, file: f, spec: s, doc: doc.Text()}
				case *ast.ValueSpec:
					for i, n := range s.Names {
						p.values[n.Name] = &valueDecl{file: f, spec: s, idx: i, isConst: d.Tok == token.CONST}
					}
				}
			}
		}
	}
}

func recvName(t ast.Expr) string {
	switch t := t.(type) {
	case *ast.StarExpr:
		return recvName(t.X)
	case *ast.Ident:
		return t.Name
	case *ast.IndexExpr:
		return recvName(t.X)
	case *ast.IndexListExpr:
		return recvName(t.X)
	case *ast.ParenExpr:
		return recvName(t.X)
	}
	return ""
}

// method finds a method of the named type, or one promoted from a field it
// embeds.
func (p *pkg) method(typeName, name string, depth int) *funcDecl {
	if p == nil || depth > 5 {
		return nil
	}
	if m := p.methods[typeName][name]; m != nil {
		return m
	}
	td := p.types[typeName]
	if td == nil {
		return nil
	}
	st, ok := td.spec.Type.(*ast.StructType)
	if !ok {
		return nil
	}
	for _, fld := range st.Fields.List {
		if len(fld.Names) != 0 {
			continue
		}
		if ep, en := td.file.namedType(fld.Type); en != "" {
			if m := ep.method(en, name, depth+1); m != nil {
				return m
			}
		}
	}
	return nil
}

// namedType is the package and name of a (possibly pointer to a) named type
// expression of the module; nil and "" otherwise.
func (f *file) namedType(t ast.Expr) (*pkg, string) {
	switch t := t.(type) {
	case *ast.StarExpr:
		return f.namedType(t.X)
	case *ast.ParenExpr:
		return f.namedType(t.X)
	case *ast.Ident:
		if f.pkg.types[t.Name] != nil {
			return f.pkg, t.Name
		}
	case *ast.SelectorExpr:
		if x, ok := t.X.(*ast.Ident); ok {
			if ip, ok := f.imports[x.Name]; ok {
				if p, _ := f.pkg.mod.load(ip); p != nil && p.types[t.Sel.Name] != nil {
					return p, t.Sel.Name
				}
			}
		}
	}
	return nil, ""
}
