package usererr

import (
	"errors"
	"fmt"
	"testing"
)

func TestConstructorsKeepKindCodeAndField(t *testing.T) {
	cases := []struct {
		err              *Error
		kind             Kind
		code, msg, field string
	}{
		{Missingf("there is no issue #%d", 4), NotFound, CodeNotFound, "there is no issue #4", ""},
		{Deniedf("only %s may", "ada"), Forbidden, CodeForbidden, "only ada may", ""},
		{Clashf("merge_conflict", "#%d conflicts", 2), Conflict, "merge_conflict", "#2 conflicts", ""},
		{BadFieldf("title", "the title must not be empty"), Unprocessable, CodeInvalidField, "the title must not be empty", "title"},
		{Unprocessablef("body", CodeTooLarge, "over %d", 10), Unprocessable, CodeTooLarge, "over 10", "body"},
		{New(TooLarge, CodeBodyTooLarge, "big"), TooLarge, CodeBodyTooLarge, "big", ""},
	}
	for _, c := range cases {
		if c.err.Kind != c.kind || c.err.Code != c.code || c.err.Message != c.msg || c.err.Field != c.field {
			t.Errorf("got %+v, want kind %d code %q message %q field %q", *c.err, c.kind, c.code, c.msg, c.field)
		}
	}
}

func TestOnCopies(t *testing.T) {
	base := New(Invalid, "x", "m")
	if on := base.On("f"); on.Field != "f" || base.Field != "" {
		t.Fatalf("On changed its receiver or lost the field: base %+v on %+v", *base, *on)
	}
}

func TestAsFindsWrapped(t *testing.T) {
	err := fmt.Errorf("step: %w", Missingf("gone"))
	ue, ok := As(err)
	if !ok || ue.Code != CodeNotFound {
		t.Fatalf("As(%v) = %v, %v", err, ue, ok)
	}
	if _, ok := As(errors.New("plain")); ok {
		t.Fatal("As found a user error in a plain one")
	}
}
