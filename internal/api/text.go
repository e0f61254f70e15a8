package api

import (
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/usererr"
)

// Text a client sends. PostgreSQL refuses NUL (and invalid UTF-8) in a
// text column, so such a string reaching SQL would fail the request with
// a 500 on one store and not the other; control characters have no
// business in any field. decode holds every string of every JSON body to
// the loosest rule (tx.CheckBody: tab, newline and carriage return are
// the only controls kept); handlers hold one-line fields to
// tx.CheckLine; forge actions get the chain's own rules in forge.Do.

// checkBodyText walks a decoded request (structs in field order, slices
// in index order, maps in key order) and refuses the first string with
// other control characters, naming it by its JSON path.
func checkBodyText(v any) error {
	return textError(walkBodyText(reflect.ValueOf(v), ""))
}

func walkBodyText(v reflect.Value, path string) error {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return walkBodyText(v.Elem(), path)
	case reflect.String:
		return tx.CheckBody(path, v.String())
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return nil // bytes, not text
		}
		for i := range v.Len() {
			if err := walkBodyText(v.Index(i), path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
	case reflect.Map:
		return walkMapText(v, path)
	case reflect.Struct:
		return walkStructText(v, path)
	}
	return nil
}

func walkMapText(v reflect.Value, path string) error {
	keys := v.MapKeys()
	slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
	for _, k := range keys {
		if k.Kind() == reflect.String {
			if err := tx.CheckBody(join(path, "(key)"), k.String()); err != nil {
				return err
			}
		}
		if err := walkBodyText(v.MapIndex(k), join(path, k.String())); err != nil {
			return err
		}
	}
	return nil
}

func walkStructText(v reflect.Value, path string) error {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if err := walkBodyText(v.Field(i), join(path, name)); err != nil {
			return err
		}
	}
	return nil
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// TextField is one one-line field of a request, for checkLines.
type TextField struct{ Name, Value string }

// checkLines holds one-line fields (names, subjects) to tx.CheckLine,
// after the spaces around them that the services trim.
func checkLines(fields ...TextField) error {
	for _, f := range fields {
		if err := tx.CheckLine(f.Name, strings.TrimSpace(f.Value)); err != nil {
			return textError(err)
		}
	}
	return nil
}

// CheckChainLines holds one-line fields a handler passes to the chain
// verbatim (untrimmed) to tx.CheckLine under the names the client sent.
// The chain would refuse the same text, but naming its payload's field
// (fullName, targetUrl), which a Gitea client never sent.
func CheckChainLines(fields ...TextField) error {
	for _, f := range fields {
		if err := tx.CheckLine(f.Name, f.Value); err != nil {
			return textError(err)
		}
	}
	return nil
}

// textError turns a text rule's *tx.Error into the 422 the API answers:
// code invalid_text, the field named.
func textError(err error) error {
	var te *tx.Error
	if !errors.As(err, &te) {
		return err
	}
	return usererr.New(usererr.Unprocessable, te.Name, te.Message).On(te.Field)
}
