package forge_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
)

// refusedText fails unless err is an invalid_text rejection naming field.
func refusedText(t *testing.T, err error, field string) {
	t.Helper()
	var te *tx.Error
	if !errors.As(err, &te) || te.Code != tx.CodeInvalidText || te.Name != "invalid_text" || te.Field != field {
		t.Fatalf("got %v (field %q), want invalid_text naming %q", err, fieldOf(err), field)
	}
}

func fieldOf(err error) string {
	var te *tx.Error
	if errors.As(err, &te) {
		return te.Field
	}
	return ""
}

// TestTextRules sends control characters and invalid UTF-8 through the
// text fields of each kind: single-line fields keep none, bodies keep
// tab, newline and carriage return; the rejection names the field.
func TestTextRules(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	pr := w.ok(writer, "pr.create", m{"repo": id, "title": "t", "headBranch": "f", "headSha": sha1, "baseSha": sha2}).Issue.Number
	refused := []struct {
		action string
		field  string
		p      m
	}{
		{"repo.create", "name", m{"name": "a\x00"}},
		{"repo.create", "description", m{"name": "n", "description": "a\x00b"}},
		{"repo.create", "description", m{"name": "n", "description": "two\nlines"}},
		{"repo.update", "description", m{"repo": id, "description": "a\tb"}},
		{"repo.update", "protectedBranches[1]", m{"repo": id, "protectedBranches": []string{"main", "x\x00"}}},
		{"repo.fork", "description", m{"repo": id, "description": "\x1b[2J"}},
		{"issue.create", "title", m{"repo": id, "title": "a\x00b"}},
		{"issue.create", "title", m{"repo": id, "title": "a\rb"}},
		{"issue.create", "title", m{"repo": id, "title": "a\x7fb"}},
		{"issue.create", "title", m{"repo": id, "title": "a\u009bb"}},
		{"issue.create", "body", m{"repo": id, "title": "t", "body": "a\x00b"}},
		{"issue.create", "body", m{"repo": id, "title": "t", "body": "a\x0bb"}},
		{"issue.edit", "title", m{"repo": id, "number": 1, "title": "\x01"}},
		{"issue.edit", "body", m{"repo": id, "number": 1, "body": "\x00"}},
		{"issue.comment", "body", m{"repo": id, "number": 1, "body": "hi\x00"}},
		{"issue.close", "reason", m{"repo": id, "number": 1, "reason": "\x00"}},
		{"label.create", "name", m{"repo": id, "name": "bug\x00", "color": "#000000"}},
		{"label.create", "description", m{"repo": id, "name": "bug", "color": "#000000", "description": "a\nb"}},
		{"pr.create", "title", m{"repo": id, "title": "t\x00", "headBranch": "g", "headSha": sha1, "baseSha": sha2}},
		{"pr.create", "body", m{"repo": id, "title": "t", "body": "\x00", "headBranch": "g", "headSha": sha1, "baseSha": sha2}},
		{"pr.review", "body", m{"repo": id, "number": pr, "state": "comment", "commitSha": sha1, "body": "\x00"}},
		{"pr.review", "comments[1].body", m{"repo": id, "number": pr, "state": "comment", "commitSha": sha1, "comments": []m{
			{"path": "a.go", "line": 1, "side": "new", "body": "fine\n"}, {"path": "a.go", "line": 2, "side": "new", "body": "nul\x00"}}}},
		{"pr.review", "comments[0].path", m{"repo": id, "number": pr, "state": "comment", "commitSha": sha1, "comments": []m{
			{"path": "a\n.go", "line": 1, "side": "new", "body": "b"}}}},
		{"event.create", "title", m{"title": "Meet\tup", "startsAt": 1, "endsAt": 2, "timezone": "UTC", "place": "p"}},
		{"event.create", "description", m{"title": "t", "description": "a\x00b", "startsAt": 1, "endsAt": 2, "timezone": "UTC", "place": "p"}},
		{"event.create", "place", m{"title": "t", "startsAt": 1, "endsAt": 2, "timezone": "UTC", "place": "two\nlines"}},
		{"event.create", "onlineUrl", m{"title": "t", "startsAt": 1, "endsAt": 2, "timezone": "UTC", "onlineUrl": "https://x.example/\r"}},
		{"event.edit", "timezone", m{"event": 1, "timezone": "UTC\x1b"}},
		{"event.rsvp", "status", m{"event": 1, "status": "going\x00"}},
		{"listing.publish", "name", m{"name": "ci\tbot", "events": []string{"push"}, "url_template": "https://ci.example/"}},
		{"listing.publish", "description", m{"name": "ci", "description": "a\x00b", "events": []string{"push"}, "url_template": "https://ci.example/"}},
		{"listing.publish", "events[0]", m{"name": "ci", "events": []string{"push\x00"}, "url_template": "https://ci.example/"}},
		{"listing.publish", "url_template", m{"name": "ci", "events": []string{"push"}, "url_template": "https://ci.example/\n"}},
		{"listing.publish", "homepage", m{"name": "ci", "events": []string{"push"}, "url_template": "https://ci.example/", "homepage": "https://x\x01"}},
		{"listing.update", "name", m{"id": 1, "name": "a\u009bb"}},
		{"forum.topic.create", "title", m{"category": "general", "title": "a\nb", "body": "b"}},
		{"forum.topic.create", "title", m{"category": "general", "title": "a\tb", "body": "b"}},
		{"forum.topic.create", "body", m{"category": "general", "title": "t", "body": "a\x00b"}},
		{"forum.topic.create", "category", m{"category": "gen\x01", "title": "t", "body": "b"}},
		{"forum.topic.edit", "title", m{"topic": 1, "title": "a\rb"}},
		{"forum.topic.edit", "body", m{"topic": 1, "body": "\x1b[2J"}},
		{"forum.post.create", "body", m{"topic": 1, "body": "nul\x00"}},
		{"forum.post.edit", "body", m{"post": 1, "body": "\x07"}},
		{"forum.topic.move", "category", m{"topic": 1, "category": "help\n"}},
	}
	for _, c := range refused {
		_, err := w.do(maint, c.action, c.p)
		refusedText(t, err, c.field)
	}
	// Bodies keep tab, newline and carriage return, and DEL and C1 (quoted
	// text); U+FFFD written as such is text like any other.
	n := w.ok(reader, "issue.create", m{"repo": id, "title": "ok \ufffd", "body": "a\r\n\tb\x7f\u0085"}).Issue.Number
	w.ok(reader, "issue.comment", m{"repo": id, "number": n, "body": "line\n\tindented\r\n"})
	w.ok(maint, "pr.review", m{"repo": id, "number": pr, "state": "comment", "commitSha": sha1, "body": "a\nb",
		"comments": []m{{"path": "a.go", "line": 1, "side": "new", "body": "x\ty\nz"}}})
	topic := w.ok(reader, "forum.topic.create", m{"category": "help", "title": "ok \ufffd", "body": "a\r\n\tb"}).ForumTopic.ID
	w.ok(reader, "forum.post.create", m{"topic": topic, "body": "line\n\tindented\r\n"})
}

// TestTextInvalidUTF8 sends a payload JSON decoding would quietly repair.
func TestTextInvalidUTF8(t *testing.T) {
	w := newWorld(t)
	w.team()
	_, err := forge.Apply(state.NewOverlay(w.st), forge.Env{Height: 9}, owner, "issue.create", `{"repo":1,"title":"a`+"\xff"+`b"}`)
	refusedText(t, err, "payload")
	_, err = forge.Apply(state.NewOverlay(w.st), forge.Env{Height: 9}, owner, "issue.create", `{"repo":1,"title":"a\u0000"}`)
	refusedText(t, err, "title")
	if err := forge.CheckText("issue.create", `{"repo":1,"title":"`+"\xc0"+`"}`); fieldOf(err) != "payload" {
		t.Fatalf("CheckText of invalid UTF-8: %v", err)
	}
}

// TestTextEveryField builds, for every action, its payload with every
// string (nested and in slices too) set to text with a NUL. CheckText
// and Apply both refuse it with invalid_text, so no string field of any
// payload type escapes the rules, and the table's payload type is the one
// the handler decodes (else the fields would be unknown: invalid_field).
func TestTextEveryField(t *testing.T) {
	w := pendingWorld(t) // the payload types of the rules in force
	w.team()
	for _, action := range forge.Actions() {
		p, ok := forge.PayloadOf(action)
		if !ok {
			t.Fatalf("%s has no payload type", action)
		}
		fields := fillStrings(t, reflect.ValueOf(p).Elem(), "")
		raw, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		_, applyErr := forge.Apply(state.NewOverlay(w.st), forge.Env{Height: 9}, owner, action, string(raw))
		if len(fields) == 0 {
			if errors.Is(applyErr, &tx.Error{Code: tx.CodeInvalidField}) {
				t.Errorf("%s: its own payload type is refused: %v", action, applyErr)
			}
			continue
		}
		refusedText(t, forge.CheckText(action, string(raw)), fields[0])
		refusedText(t, applyErr, fields[0])
	}
}

// fillStrings sets every string under v to "x\x00" and every slice to one
// element, and returns the JSON paths of the strings in order. It fails
// on maps, which the text walk refuses to range over.
func fillStrings(t *testing.T, v reflect.Value, path string) []string {
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		return fillStrings(t, v.Elem(), path)
	case reflect.String:
		v.SetString("x\x00")
		return []string{path}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return nil
		}
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		return fillStrings(t, v.Index(0), path+"[0]")
	case reflect.Struct:
		var paths []string
		for i := range v.NumField() {
			f := v.Type().Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if path != "" {
				name = path + "." + name
			}
			paths = append(paths, fillStrings(t, v.Field(i), name)...)
		}
		return paths
	case reflect.Map, reflect.Interface:
		t.Fatalf("%s: a payload type holds a %s", path, v.Kind())
	}
	return nil
}

// TestTextEachFieldOfEveryAction walks the actions table and, for every
// string field of every payload type (nested and in slices too), sends a
// payload whose other strings are plain text and whose one field holds a
// NUL: CheckText (the node's check before relaying) and Apply (the chain)
// both refuse it with invalid_text naming that field. TestTextEveryField
// only sees the first field of each action; this one fails for any field
// a new action (or a new field of an old one) would let through.
func TestTextEachFieldOfEveryAction(t *testing.T) {
	w := newWorld(t)
	w.team()
	checked := 0
	for _, action := range forge.Actions() {
		p, _ := forge.PayloadOf(action)
		var fields []textField
		collectStrings(t, reflect.ValueOf(p).Elem(), "", &fields)
		for _, f := range fields {
			f.v.SetString("x\x00")
			raw, err := json.Marshal(p)
			f.v.SetString("x")
			if err != nil {
				t.Fatal(err)
			}
			if err := forge.CheckText(action, string(raw)); fieldOf(err) != f.path {
				t.Errorf("%s %s: CheckText = %v, want invalid_text naming %s", action, f.path, err, f.path)
			}
			_, err = forge.Apply(state.NewOverlay(w.st), forge.Env{Height: 9}, owner, action, string(raw))
			var te *tx.Error
			if !errors.As(err, &te) || te.Code != tx.CodeInvalidText || te.Field != f.path {
				t.Errorf("%s %s: Apply = %v, want invalid_text naming %s", action, f.path, err, f.path)
			}
			checked++
		}
	}
	t.Logf("%d string fields of %d actions refuse NUL", checked, len(forge.Actions()))
}

// textField is one string in a payload being built: its JSON path and
// the settable value.
type textField struct {
	path string
	v    reflect.Value
}

// collectStrings sets every string under v to "x" and every slice to one
// element, and appends each string's path and value to out in order.
func collectStrings(t *testing.T, v reflect.Value, path string, out *[]textField) {
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		collectStrings(t, v.Elem(), path, out)
	case reflect.String:
		v.SetString("x")
		*out = append(*out, textField{path, v})
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		collectStrings(t, v.Index(0), path+"[0]", out)
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if path != "" {
				name = path + "." + name
			}
			collectStrings(t, v.Field(i), name, out)
		}
	case reflect.Map, reflect.Interface:
		t.Fatalf("%s: a payload type holds a %s", path, v.Kind())
	}
}
