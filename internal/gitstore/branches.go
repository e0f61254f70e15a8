package gitstore

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"
)

// Branches and tags as the browser lists them, through for-each-ref.

// Branch is a branch and its newest commit.
type Branch struct {
	Name   string
	Commit Commit // without files
}

// Tag is a tag: lightweight, or annotated with its own message.
type Tag struct {
	Name      string
	ID        string // the tag object's id (the commit's, when lightweight)
	Commit    string // the commit it points at ("" when not a commit)
	Message   string // of an annotated tag
	Annotated bool
	// Committed is the commit's committer date (zero when not a commit).
	Committed time.Time
	// Tagger signs an annotated tag (zero otherwise).
	Tagger Signature
}

// refFormat is for-each-ref's record, the message last (it is split on
// the first NULs only). The dates come with the ref's object and the
// object an annotated tag peels to, at no extra cost.
const refFormat = "%(refname)%00%(objectname)%00%(objecttype)%00%(*objectname)%00%(*objecttype)%00" +
	"%(committerdate:iso-strict)%00%(*committerdate:iso-strict)%00" +
	"%(taggername)%00%(taggeremail:trim)%00%(taggerdate:iso-strict)%00%(contents)%1e"

const refFields = 11

// Branches lists the branches by name, each with its newest commit.
func Branches(ctx context.Context, dir string) ([]Branch, error) {
	refs, err := forEachRef(ctx, dir, "refs/heads/")
	if err != nil {
		return nil, err
	}
	var branches []Branch
	ids := map[string][]int{}
	var order []string
	for _, r := range refs {
		if r.typ != "commit" {
			continue
		}
		ids[r.id] = append(ids[r.id], len(branches))
		if len(ids[r.id]) == 1 {
			order = append(order, r.id)
		}
		branches = append(branches, Branch{Name: strings.TrimPrefix(r.name, "refs/heads/")})
	}
	commits, err := commitsByID(ctx, dir, order)
	if err != nil {
		return nil, err
	}
	for _, c := range commits {
		for _, i := range ids[c.ID] {
			branches[i].Commit = c
		}
	}
	return branches, nil
}

// Tags lists the tags by name.
func Tags(ctx context.Context, dir string) ([]Tag, error) {
	return tagsUnder(ctx, dir, "refs/tags/")
}

func tagsUnder(ctx context.Context, dir, prefix string) ([]Tag, error) {
	refs, err := forEachRef(ctx, dir, prefix)
	if err != nil {
		return nil, err
	}
	tags := []Tag{}
	for _, r := range refs {
		t := Tag{Name: strings.TrimPrefix(r.name, "refs/tags/"), ID: r.id}
		switch {
		case r.typ == "commit":
			t.Commit, t.Committed = r.id, parseTime(r.committed)
		case r.typ == "tag":
			t.Annotated, t.Message = true, strings.TrimRight(r.contents, "\n")
			t.Tagger = Signature{Name: r.tagger, Email: r.taggerEmail, When: parseTime(r.tagged)}
			if r.peeledType == "commit" {
				t.Commit, t.Committed = r.peeled, parseTime(r.peeledCommitted)
			}
		}
		tags = append(tags, t)
	}
	return tags, nil
}

type refLine struct {
	name, id, typ, peeled, peeledType string
	committed, peeledCommitted        string // committer dates, ISO 8601
	tagger, taggerEmail, tagged       string
	contents                          string
}

func forEachRef(ctx context.Context, dir, prefix string) ([]refLine, error) {
	out, err := read(ctx, dir, nil, "for-each-ref", "--sort=refname", "--format="+refFormat, prefix)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", prefix, err)
	}
	var refs []refLine
	for _, rec := range bytes.Split(out, []byte{0x1e}) {
		rec = bytes.TrimPrefix(rec, []byte{'\n'})
		if len(rec) == 0 {
			continue
		}
		f := strings.SplitN(string(rec), "\x00", refFields)
		if len(f) != refFields {
			return nil, fmt.Errorf("for-each-ref: unexpected record %q", rec)
		}
		refs = append(refs, refLine{name: f[0], id: f[1], typ: f[2], peeled: f[3], peeledType: f[4],
			committed: f[5], peeledCommitted: f[6], tagger: f[7], taggerEmail: f[8], tagged: f[9], contents: f[10]})
	}
	return refs, nil
}

// RefNames lists the full names of refs under prefix ("refs/" for all)
// with the objects they point at.
func RefNames(ctx context.Context, dir, prefix string) ([]Ref, error) {
	refs, err := forEachRef(ctx, dir, prefix)
	if err != nil {
		return nil, err
	}
	out := make([]Ref, 0, len(refs))
	for _, r := range refs {
		out = append(out, Ref{Name: r.name, ID: r.id})
	}
	return out, nil
}

// RefClash is an existing ref whose name git could not keep beside ref
// ("" when none): refs are files, so refs/heads/a and refs/heads/a/b
// cannot both exist. The node records a push on chain before git moves its
// refs, so a ref git would refuse to create must be refused first.
func RefClash(ctx context.Context, dir, ref string) (string, error) {
	patterns := []string{ref + "/"}
	for i := strings.IndexByte(ref, '/'); i >= 0; i = nextSlash(ref, i) {
		patterns = append(patterns, ref[:i])
	}
	out, err := read(ctx, dir, nil, append([]string{"for-each-ref", "--format=%(refname)"}, patterns...)...)
	if err != nil {
		return "", fmt.Errorf("list the refs beside %s: %w", ref, err)
	}
	for _, name := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if name == "" || name == ref {
			continue
		}
		if strings.HasPrefix(name, ref+"/") || strings.HasPrefix(ref, name+"/") {
			return name, nil
		}
	}
	return "", nil
}

func nextSlash(s string, i int) int {
	j := strings.IndexByte(s[i+1:], '/')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}
