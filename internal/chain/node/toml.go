package node

import (
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
	"time"

	cmtcfg "github.com/cometbft/cometbft/config"
)

// readConfigFile overlays the values of a config.toml onto cc.
//
// CometBFT's own binary reads config.toml with viper; dForge has no TOML
// library in its module graph, so this reads the subset that CometBFT's
// template writes: [section] headers and one `key = value` per line, where a
// value is a string, number, boolean or one-line array of strings. Keys map to
// fields through the config structs' mapstructure tags, as viper would map
// them. Anything else is an error rather than a silently ignored setting.
func readConfigFile(path string, cc *cmtcfg.Config) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	values, err := parseTOML(string(data))
	if err != nil {
		return fmt.Errorf("parse %s: %w", path, err)
	}
	if err := setStruct(reflect.ValueOf(cc).Elem(), "", values); err != nil {
		return fmt.Errorf("apply %s: %w", path, err)
	}
	return nil
}

// parseTOML returns the raw value text of each key, keyed by "section.key".
func parseTOML(data string) (map[string]string, error) {
	values := map[string]string{}
	section := ""
	for i, line := range strings.Split(data, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || line[0] == '#':
		case line[0] == '[':
			header, _, _ := strings.Cut(line, "#")
			header = strings.TrimSpace(header)
			if !strings.HasSuffix(header, "]") || strings.HasPrefix(header, "[[") {
				return nil, fmt.Errorf("line %d: unsupported table header %q", i+1, line)
			}
			section = strings.TrimSpace(header[1:len(header)-1]) + "."
		default:
			key, val, ok := strings.Cut(line, "=")
			if !ok {
				return nil, fmt.Errorf("line %d: expected key = value", i+1)
			}
			values[section+strings.TrimSpace(key)] = strings.TrimSpace(val)
		}
	}
	return values, nil
}

// setStruct assigns values to the fields of the struct v whose mapstructure
// tag, under prefix, names a key. Nested config structs are TOML tables.
func setStruct(v reflect.Value, prefix string, values map[string]string) error {
	t := v.Type()
	for i := range t.NumField() {
		tag, opts, _ := strings.Cut(t.Field(i).Tag.Get("mapstructure"), ",")
		squash := opts == "squash" // the field's keys sit in the parent's table
		if tag == "" && !squash || tag == "-" {
			continue
		}
		if err := setValue(v.Field(i), prefix, tag, squash, values); err != nil {
			return err
		}
	}
	return nil
}

func setValue(f reflect.Value, prefix, tag string, squash bool, values map[string]string) error {
	switch {
	case squash:
		return setStruct(f, prefix, values)
	case f.Kind() == reflect.Pointer && f.Type().Elem().Kind() == reflect.Struct:
		if f.IsNil() {
			return nil
		}
		return setStruct(f.Elem(), prefix+tag+".", values)
	case f.Kind() == reflect.Struct:
		return setStruct(f, prefix+tag+".", values)
	}
	raw, ok := values[prefix+tag]
	if !ok {
		return nil
	}
	if err := setScalar(f, raw); err != nil {
		return fmt.Errorf("%s%s: %w", prefix, tag, err)
	}
	return nil
}

var durationType = reflect.TypeFor[time.Duration]()

// setScalar parses raw into f. Like viper, it accepts quoted numbers and
// comma-separated strings for lists, both of which CometBFT's template writes.
func setScalar(f reflect.Value, raw string) error {
	if f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.String {
		list, err := parseList(raw)
		if err == nil {
			f.Set(reflect.ValueOf(list))
		}
		return err
	}
	s, err := parseScalar(raw)
	if err != nil {
		return err
	}
	switch {
	case f.Type() == durationType:
		d, err := time.ParseDuration(s)
		f.SetInt(int64(d))
		return err
	case f.Kind() == reflect.String:
		f.SetString(s)
	case f.Kind() == reflect.Bool:
		b, err := strconv.ParseBool(s)
		f.SetBool(b)
		return err
	case f.CanInt():
		n, err := strconv.ParseInt(s, 10, f.Type().Bits())
		f.SetInt(n)
		return err
	case f.CanUint():
		n, err := strconv.ParseUint(s, 10, f.Type().Bits())
		f.SetUint(n)
		return err
	default:
		return fmt.Errorf("unsupported field type %s", f.Type())
	}
	return nil
}

// parseScalar returns the text of a quoted string, or a bare value without
// its trailing comment.
func parseScalar(raw string) (string, error) {
	if raw != "" && (raw[0] == '"' || raw[0] == '\'') {
		s, rest, err := cutString(raw)
		if err != nil {
			return "", err
		}
		if rest = strings.TrimSpace(rest); rest != "" && rest[0] != '#' {
			return "", fmt.Errorf("unexpected %q after string", rest)
		}
		return s, nil
	}
	bare, _, _ := strings.Cut(raw, "#")
	return strings.TrimSpace(bare), nil
}

// parseList reads ["a", "b", ] or a comma-separated string.
func parseList(raw string) ([]string, error) {
	if !strings.HasPrefix(raw, "[") {
		s, err := parseScalar(raw)
		if err != nil || s == "" {
			return nil, err
		}
		return strings.Split(s, ","), nil
	}
	list := []string{}
	rest := raw[1:]
	for {
		rest = strings.TrimLeft(rest, " \t,")
		switch {
		case rest == "":
			return nil, fmt.Errorf("unterminated array %q (arrays must fit on one line)", raw)
		case rest[0] == ']':
			return list, nil
		}
		s, after, err := cutString(rest)
		if err != nil {
			return nil, err
		}
		list = append(list, s)
		rest = after
	}
}

// cutString decodes the quoted string at the start of s and returns the rest.
// Double-quoted strings take Go/JSON escapes plus \' (CometBFT's template
// escapes paths with text/template's js function); single-quoted strings are
// TOML literals.
func cutString(s string) (string, string, error) {
	if s[0] == '\'' {
		end := strings.IndexByte(s[1:], '\'')
		if end < 0 {
			return "", "", fmt.Errorf("unterminated string %q", s)
		}
		return s[1 : end+1], s[end+2:], nil
	}
	var b strings.Builder
	rest := s[1:]
	for rest != "" && rest[0] != '"' {
		if strings.HasPrefix(rest, `\'`) {
			b.WriteByte('\'')
			rest = rest[2:]
			continue
		}
		r, _, tail, err := strconv.UnquoteChar(rest, '"')
		if err != nil {
			return "", "", fmt.Errorf("bad string %q: %w", s, err)
		}
		b.WriteRune(r)
		rest = tail
	}
	if rest == "" {
		return "", "", fmt.Errorf("unterminated string %q", s)
	}
	return b.String(), rest[1:], nil
}
