package moderation

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/dforge/dforge/internal/usererr"
)

// checkText refuses text that is not valid UTF-8, holds NUL or other C0
// controls (multi-line text may keep tab, newline and carriage return),
// or is longer than max characters.
func checkText(field, s string, max int, multiline bool) error {
	if !utf8.ValidString(s) {
		return usererr.Unprocessablef(field, usererr.CodeInvalidText, "%s is not valid UTF-8", field)
	}
	for _, c := range s {
		if c < 0x20 && !(multiline && (c == '\t' || c == '\n' || c == '\r')) || c == 0x7f {
			return usererr.Unprocessablef(field, usererr.CodeInvalidText, "%s holds a control character (U+%04X)", field, c)
		}
	}
	if n := utf8.RuneCountInString(s); n > max {
		return usererr.Unprocessablef(field, usererr.CodeTooLarge, "%s is %d characters; the most is %d", field, n, max)
	}
	return nil
}

// checkReason reads a report's category.
func checkReason(reason string) error {
	if reason == "" {
		return usererr.Unprocessablef("reason", usererr.CodeRequired, "reason is required: one of %s", strings.Join(Reasons, ", "))
	}
	if !slices.Contains(Reasons, reason) {
		return usererr.BadFieldf("reason", "reason must be one of %s", strings.Join(Reasons, ", "))
	}
	return nil
}

// checkModReason reads the reason a moderator gives others for hiding or
// suspending: required, one paragraph.
func checkModReason(reason string) (string, error) {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return "", usererr.Unprocessablef("reason", usererr.CodeRequired, "reason is required: it is shown in place of the hidden content")
	}
	if err := checkText("reason", reason, MaxReason, false); err != nil {
		return "", fmt.Errorf("check the reason: %w", err)
	}
	return reason, nil
}
