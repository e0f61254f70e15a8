package openapi

import (
	"fmt"
	"go/ast"
	"go/token"
	"regexp"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/dforge/dforge/internal/chain/tx"
)

// tx.Envelope's message is a map[string]any in Go: which fields it holds
// depends on the type, as the tx package's registry says. So its schema
// is not read from the struct but made from that registry (tx.Kinds and
// tx.Types, the same table Verify and the EIP-712 hash use): one variant
// per transaction type, chosen by "type", its message the type's EIP-712
// members. A type added to the registry is in the document at once.

// txPath is the tx package's import path.
const txPath = "github.com/dforge/dforge/internal/chain/tx"

// builtComponents are the module's structs whose schema comes from a
// table of their package rather than from their fields, by import path
// and type name.
var builtComponents = map[string]func(g *gen, td *typeDecl, name string) schema{
	txPath + ".Envelope": (*gen).txEnvelope,
}

// eip712Schemas are the JSON forms Verify accepts for each EIP-712 member
// type the chain signs (internal/chain/tx/fields.go). Those with a
// component name are shared components (tx.Address, tx.Uint256).
var eip712Schemas = map[string]struct {
	component string
	schema    schema
}{
	"address": {"Address", schema{"type": "string", "pattern": "^0x[0-9a-fA-F]{40}$",
		"description": "An account address (EIP-712 address): 0x and 40 hex digits; the EIP-55 checksum is not required."}},
	"uint256": {"Uint256", schema{"oneOf": []any{
		schema{"type": "string", "pattern": "^[0-9]+$"},
		schema{"type": "integer", "minimum": 0, "maximum": int64(1) << 53},
	}, "description": "A whole number (EIP-712 uint256), at most 2^64-1: a decimal string, or a JSON number up to 2^53."}},
	"string": {"", schema{"type": "string"}},
}

// txEnvelope makes the component name (tx.Envelope) a oneOf of one
// envelope per transaction type, with the type's message as a component
// of its own (tx.Transfer, tx.BountyFund, ...).
func (g *gen) txEnvelope(td *typeDecl, name string) schema {
	prefix := strings.TrimSuffix(name, "Envelope")
	types := tx.Types()
	docs := g.kindDocs(td.pkg)
	var variants []any
	mapping := map[string]any{}
	for _, kind := range tx.Kinds() {
		msgName, envName := prefix+string(kind), prefix+string(kind)+"Envelope"
		msg, err := g.messageSchema(td, prefix, types[string(kind)])
		if err != nil {
			g.errs = append(g.errs, fmt.Errorf("the %s transaction: %w", kind, err))
			continue
		}
		if doc := docs[kind]; doc != "" {
			msg["description"] = doc
		}
		g.addComponent(msgName, td, msg)
		g.addComponent(envName, td, schema{
			"type":                 "object",
			"description":          "A signed " + string(kind) + " transaction.",
			"required":             []any{"type", "message", "signature"},
			"additionalProperties": false,
			"properties": schema{
				"type":    schema{"type": "string", "enum": []any{string(kind)}, "description": "the EIP-712 primary type"},
				"message": schema{"$ref": "#/components/schemas/" + msgName},
				"signature": schema{"type": "string", "pattern": "^0x[0-9a-fA-F]{130}$",
					"description": "the EIP-712 signature of the message by its from address: 65 bytes (r, s, v) in 0x-hex"},
			},
		})
		ref := "#/components/schemas/" + envName
		variants = append(variants, schema{"$ref": ref})
		mapping[string(kind)] = ref
	}
	return schema{"oneOf": variants, "discriminator": schema{"propertyName": "type", "mapping": mapping}}
}

// messageSchema is a message of the given EIP-712 members: each one
// required, no other allowed (Verify refuses both).
func (g *gen) messageSchema(owner *typeDecl, prefix string, members []apitypes.Type) (schema, error) {
	props := schema{}
	var required []any
	for _, m := range members {
		e, ok := eip712Schemas[m.Type]
		if !ok {
			return nil, fmt.Errorf("no JSON schema for the EIP-712 type %q of %q: add it to eip712Schemas", m.Type, m.Name)
		}
		s := clone(e.schema)
		if e.component != "" {
			g.addComponent(prefix+e.component, owner, s)
			s = schema{"$ref": "#/components/schemas/" + prefix + e.component}
		}
		props[m.Name] = s
		required = append(required, m.Name)
	}
	return schema{"type": "object", "required": required, "additionalProperties": false, "properties": props}, nil
}

// addComponent adds a schema made for owner under name.
func (g *gen) addComponent(name string, owner *typeDecl, s schema) {
	if prev, taken := g.compOwner[name]; taken && prev != owner {
		g.errs = append(g.errs, fmt.Errorf("the component %s is made twice", name))
		return
	}
	g.compOwner[name] = owner
	g.components[name] = s
}

// kindName is a Kind constant's name in a comment: KindBountyFund is
// BountyFund in the document.
var kindName = regexp.MustCompile(`\bKind([A-Z][A-Za-z]*)`)

// kindDocs reads the doc comments of the Kind constants: each kind's is
// the comment of its own constant or, in a group, of the nearest one
// above that names it ("KindBountyFund moves ...; KindBountyRefund takes ...").
func (g *gen) kindDocs(p *pkg) map[tx.Kind]string {
	out := map[tx.Kind]string{}
	for _, f := range p.files {
		for _, d := range f.ast.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			var docs []string // the doc comments seen so far in the group
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				if vs.Doc != nil {
					docs = append(docs, vs.Doc.Text())
				}
				for i, n := range vs.Names {
					if i >= len(vs.Values) {
						continue
					}
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					v, err := strconv.Unquote(lit.Value)
					if err != nil || !tx.Kind(v).Known() {
						continue
					}
					for j := len(docs) - 1; j >= 0; j-- {
						if strings.Contains(docs[j], n.Name) {
							out[tx.Kind(v)] = kindName.ReplaceAllString(strings.Join(strings.Fields(docs[j]), " "), "$1")
							break
						}
					}
				}
			}
		}
	}
	return out
}
