package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// A small validator of JSON answers against Gitea 1.22's OpenAPI 2.0
// document (testdata/gitea-1.22-swagger.json, templates/swagger/v1_json.tmpl
// of Gitea v1.22.6 with its two template placeholders filled in).
//
// Gitea's document marks few fields required, yet Gitea always sends every
// field of its structs, and clients read them: so every property a schema
// lists is expected, unless giteaDifferences says why not.

// The one place for how dForge's answers differ from Gitea 1.22's
// document, each with its reason.
//
// giteaDifferences are the properties dForge leaves out on purpose, or
// that Gitea itself leaves out (omitempty in its modules/structs), keyed
// Definition.property.
var giteaDifferences = map[string]string{
	// Gitea omits these when empty (omitempty in modules/structs).
	"Repository.permissions":        "Gitea omits it for anonymous readers (omitempty)",
	"Repository.internal_tracker":   "Gitea omits it (omitempty); dForge has no tracker settings",
	"Repository.external_tracker":   "Gitea omits it unless an external tracker is set (omitempty)",
	"Repository.external_wiki":      "Gitea omits it unless an external wiki is set (omitempty)",
	"Repository.mirror_updated":     "Gitea omits it for repositories that are not mirrors (omitempty)",
	"ChangedFile.previous_filename": "Gitea omits it unless the file was renamed (omitempty)",
	"Commit.files":                  "Gitea omits it unless asked for (omitempty)",
	"Commit.stats":                  "Gitea omits it unless asked for (omitempty)",

	// dForge's own choices.
	"User.email":                "a profile's email is shown to its owner only (Gitea shows others a noreply placeholder)",
	"CommitMeta.created":        "a parent commit's: Gitea sends Go's zero time (0001-01-01), which says nothing",
	"PullRequest.additions":     "lists skip the diff stats (a git diff per pull request); GET /pulls/{index} has them",
	"PullRequest.deletions":     "as additions",
	"PullRequest.changed_files": "as additions",
	"TopicResponse.id":          "a topic is a word on repositories, with no record (id, dates) of its own",
	"TopicResponse.created":     "as id",
	"TopicResponse.updated":     "as id",
}

// briefUser are the User properties a user inside another answer (an
// owner, a poster, a list of members) leaves out: it is built from the
// chain's name and address alone, and the profile is at /users/{username}.
// The profile operations have them.
var briefUser = map[string]bool{
	"created": true, "description": true, "location": true, "website": true,
	"followers_count": true, "following_count": true, "starred_repos_count": true,
}

var profileOperations = map[string]bool{"GET /user": true, "GET /users/{username}": true, "GET /users/search": true}

// giteaCorrections are answers Gitea's document gets wrong: the schema of
// what Gitea 1.22 sends instead, by operation.
var giteaCorrections = map[string]*schema{
	// routers/api/v1/repo/topic.go TopicSearch sends {"topics": [...]}.
	"GET /topics/search": {Type: "object", Properties: map[string]*schema{
		"topics": {Type: "array", Items: &schema{Ref: "#/definitions/TopicResponse"}}}},
	// routers/api/v1/user/settings.go sends one UserSettings, not a list.
	"GET /user/settings":   {Ref: "#/definitions/UserSettings"},
	"PATCH /user/settings": {Ref: "#/definitions/UserSettings"},
}

// giteaAdditions are properties Gitea sends beyond its document: User's
// MarshalJSON adds username (the login, kept for older clients).
var giteaAdditions = map[string]map[string]*schema{
	"User": {"username": {Type: "string"}},
}

// swagger is the part of an OpenAPI 2.0 document the validator reads.
type swagger struct {
	Paths       map[string]map[string]json.RawMessage `json:"paths"`
	Definitions map[string]*schema                    `json:"definitions"`
	Responses   map[string]*swaggerResponse           `json:"responses"`
}

type swaggerResponse struct {
	Ref    string             `json:"$ref"`
	Schema *schema            `json:"schema"`
	Header map[string]*schema `json:"headers"`
}

type operation struct {
	Responses map[string]*swaggerResponse `json:"responses"`
}

type schema struct {
	Ref        string             `json:"$ref"`
	Type       string             `json:"type"`
	Format     string             `json:"format"`
	Enum       []any              `json:"enum"`
	Required   []string           `json:"required"`
	Properties map[string]*schema `json:"properties"`
	Items      *schema            `json:"items"`
	Extra      json.RawMessage    `json:"additionalProperties"`
}

func loadSwagger(path string) (*swagger, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s swagger
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	return &s, nil
}

// bodySchema is what Gitea documents for an answer of status to method on
// the templated path: ok false when the status is not documented. The
// error responses (APIError, APIForbiddenError, APIValidationError) list
// their body's fields as headers, a quirk of go-swagger: they become an
// object's properties. A nil schema is an answer Gitea gives no body.
func (s *swagger) bodySchema(method, path string, status int) (sch *schema, ok bool) {
	raw, found := s.Paths[path][strings.ToLower(method)]
	if !found {
		return nil, false
	}
	var op operation
	if json.Unmarshal(raw, &op) != nil {
		return nil, false
	}
	res := op.Responses[fmt.Sprint(status)]
	if res == nil {
		return nil, false
	}
	if name, ok := strings.CutPrefix(res.Ref, "#/responses/"); ok {
		res = s.Responses[name]
	}
	if res.Schema == nil && len(res.Header) > 0 {
		return &schema{Type: "object", Properties: res.Header}, true
	}
	return res.Schema, true
}

// validate checks v (decoded with UseNumber) against sch and returns the
// drifts found, each as "where: what".
// On a profile operation, a User has every property (see briefUser).
func (s *swagger) validate(sch *schema, v any, profile bool) []string {
	c := checker{swagger: s, profile: profile}
	c.check("$", "", sch, v)
	return c.problems
}

type checker struct {
	*swagger
	profile  bool
	problems []string
}

func (s *checker) check(at, def string, sch *schema, v any) {
	fail := func(format string, args ...any) {
		s.problems = append(s.problems, at+": "+fmt.Sprintf(format, args...))
	}
	if name, ok := strings.CutPrefix(sch.Ref, "#/definitions/"); ok {
		def, sch = name, s.Definitions[name]
		if sch == nil {
			fail("no definition %s", name)
			return
		}
	}
	if v == nil {
		// OpenAPI 2.0 cannot say nullable; Gitea sends null for its pointer
		// fields, which are objects, lists, strings and times. A number or
		// a boolean is never null in Gitea's answers.
		if sch.Type == "integer" || sch.Type == "number" || sch.Type == "boolean" {
			fail("null, want %s", sch.Type)
		}
		return
	}
	if len(sch.Enum) > 0 && !slices.ContainsFunc(sch.Enum, func(e any) bool { return fmt.Sprint(e) == fmt.Sprint(v) }) {
		fail("%v is not one of %v", v, sch.Enum)
	}
	typ := sch.Type
	if typ == "" && sch.Properties != nil {
		typ = "object"
	}
	switch typ {
	case "string":
		str, ok := v.(string)
		if !ok {
			fail("%s, want a string", jsonType(v))
		} else if sch.Format == "date-time" {
			if _, err := time.Parse(time.RFC3339, str); err != nil {
				fail("%q is not an RFC 3339 time", str)
			}
		}
	case "integer":
		if n, ok := v.(json.Number); !ok {
			fail("%s, want an integer", jsonType(v))
		} else if _, err := n.Int64(); err != nil {
			fail("%s is not an integer", n)
		}
	case "number":
		if _, ok := v.(json.Number); !ok {
			fail("%s, want a number", jsonType(v))
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			fail("%s, want a boolean", jsonType(v))
		}
	case "array":
		list, ok := v.([]any)
		if !ok {
			fail("%s, want an array", jsonType(v))
			return
		}
		for i, item := range list {
			if sch.Items != nil {
				s.check(fmt.Sprintf("%s[%d]", at, i), def, sch.Items, item)
			}
		}
	case "object":
		obj, ok := v.(map[string]any)
		if !ok {
			fail("%s, want an object", jsonType(v))
			return
		}
		props := sch.Properties
		if extra := giteaAdditions[def]; extra != nil {
			props = merged(props, extra)
		}
		for _, name := range sortedKeys(props) {
			val, present := obj[name]
			if !present {
				_, deliberate := giteaDifferences[def+"."+name]
				brief := def == "User" && briefUser[name] && !(s.profile && (at == "$" || strings.HasPrefix(at, "$.data[")))
				if !deliberate && !brief || slices.Contains(sch.Required, name) {
					fail("missing %s (%s.%s)", name, def, name)
				}
				continue
			}
			s.check(at+"."+name, def, props[name], val)
		}
		if len(sch.Extra) > 0 && sch.Extra[0] == '{' {
			var each schema
			if json.Unmarshal(sch.Extra, &each) == nil {
				for _, k := range sortedKeys(obj) {
					if _, named := props[k]; !named {
						s.check(at+"."+k, def, &each, obj[k])
					}
				}
			}
		}
	}
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func merged(a, b map[string]*schema) map[string]*schema {
	out := make(map[string]*schema, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// decodeNumbers decodes a JSON body keeping numbers as json.Number, so
// that an integer is told from a fraction.
func decodeNumbers(body []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

// TestGiteaSchemaValidator: the validator finds each kind of drift.
func TestGiteaSchemaValidator(t *testing.T) {
	spec, err := loadSwagger("testdata/gitea-1.22-swagger.json")
	if err != nil {
		t.Fatal(err)
	}
	user, _ := spec.bodySchema("GET", "/user", 200)
	good := `{"id":1,"login":"a","username":"a","login_name":"","source_id":0,"full_name":"","email":"","avatar_url":"",
		"html_url":"","language":"","is_admin":false,"last_login":"1970-01-01T00:00:00Z","created":"2024-01-02T03:04:05Z",
		"restricted":false,"active":true,"prohibit_login":false,"location":"","website":"","description":"",
		"visibility":"public","followers_count":0,"following_count":0,"starred_repos_count":0}`
	cases := map[string]struct{ body, want string }{
		"a whole user":           {good, ""},
		"no username":            {strings.Replace(good, `"username":"a",`, "", 1), "$: missing username (User.username)"},
		"a string id":            {strings.Replace(good, `"id":1`, `"id":"1"`, 1), "$.id: a string, want an integer"},
		"a fractional id":        {strings.Replace(good, `"id":1`, `"id":1.5`, 1), "$.id: 1.5 is not an integer"},
		"a time not RFC 3339":    {strings.Replace(good, `"2024-01-02T03:04:05Z"`, `"2024-01-02 03:04"`, 1), `$.created: "2024-01-02 03:04" is not an RFC 3339 time`},
		"a null boolean":         {strings.Replace(good, `"active":true`, `"active":null`, 1), "$.active: null, want boolean"},
		"an array for an object": {`[]`, "$: an array, want an object"},
	}
	for name, c := range cases {
		v, err := decodeNumbers([]byte(c.body))
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(spec.validate(user, v, true), "; ")
		if got != c.want {
			t.Errorf("%s: problems %q, want %q", name, got, c.want)
		}
	}
	state := &schema{Type: "string", Enum: []any{"open", "closed"}}
	if got := strings.Join(spec.validate(state, "half-open", false), "; "); got != "$: half-open is not one of [open closed]" {
		t.Errorf("a state out of the enum: %q", got)
	}
}
