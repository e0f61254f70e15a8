package forge

import (
	"reflect"
	"strconv"
	"strings"

	"github.com/dforge/dforge/internal/chain/tx"
)

// textTag marks a payload field as multi-line text: `text:"body"` holds
// it to tx.CheckBody. Every other string (titles, names, labels,
// descriptions, paths, refs) is one line: tx.CheckLine. Making one line
// the default means a new field is covered without anyone remembering to.
const textTag = "text"

// checkText holds every string of a decoded payload (a pointer to one of
// the payload types) to the text rules. It walks fields in declaration
// order and slices in index order, so every node names the same field;
// the field is named by its JSON path ("comments[0].body").
func checkText(payload any) error {
	return walkText(reflect.ValueOf(payload), "", false)
}

func walkText(v reflect.Value, path string, body bool) error {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return walkText(v.Elem(), path, body)
	case reflect.String:
		if body {
			return tx.CheckBody(path, v.String())
		}
		return tx.CheckLine(path, v.String())
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return nil // bytes: an address or a hash, not text
		}
		for i := range v.Len() {
			if err := walkText(v.Index(i), path+"["+strconv.Itoa(i)+"]", body); err != nil {
				return err
			}
		}
	case reflect.Struct:
		return walkFields(v, path)
	case reflect.Map:
		// A map's order differs between runs, and so would the field
		// named; payloads have none (a test checks every payload type).
		return tx.NewError(tx.CodeInvalidField, "field %q: a payload holds no maps", path)
	}
	return nil
}

func walkFields(v reflect.Value, path string) error {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		name := jsonName(f)
		if !f.IsExported() || name == "-" {
			continue
		}
		if path != "" {
			name = path + "." + name
		}
		if err := walkText(v.Field(i), name, f.Tag.Get(textTag) == "body"); err != nil {
			return err
		}
	}
	return nil
}

// jsonName is the name encoding/json gives a field.
func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" {
		return f.Name
	}
	return name
}
