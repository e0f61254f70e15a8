package gitstore

import (
	"context"
	"fmt"
	"strings"
)

// Single tags: read one by name or by its tag object, and write an
// annotated tag object (the ref is moved by the caller, after the chain
// recorded it).

// TagNamed is the tag name; false when there is none.
func TagNamed(ctx context.Context, dir, name string) (Tag, bool, error) {
	tags, err := tagsUnder(ctx, dir, "refs/tags/"+name)
	if err != nil {
		return Tag{}, false, err
	}
	for _, t := range tags {
		if t.Name == name {
			return t, true, nil
		}
	}
	return Tag{}, false, nil
}

// AnnotatedTag is the tag whose tag object is id; false when no tag ref
// holds that annotated tag object.
func AnnotatedTag(ctx context.Context, dir, id string) (Tag, bool, error) {
	tags, err := Tags(ctx, dir)
	if err != nil {
		return Tag{}, false, err
	}
	for _, t := range tags {
		if t.Annotated && t.ID == id {
			return t, true, nil
		}
	}
	return Tag{}, false, nil
}

// WriteTagObject writes an annotated tag object named name on commit
// target, signed by tagger, and returns its id. Git's mktag checks it.
func WriteTagObject(ctx context.Context, dir, name, target string, tagger Signature, message string) (string, error) {
	if !strings.HasSuffix(message, "\n") {
		message += "\n"
	}
	obj := fmt.Sprintf("object %s\ntype commit\ntag %s\ntagger %s <%s> %d %s\n\n%s",
		target, name, tagger.Name, tagger.Email, tagger.When.Unix(), tagger.When.Format("-0700"), message)
	id, err := run(ctx, dir, nil, strings.NewReader(obj), "mktag")
	if err != nil {
		return "", fmt.Errorf("write tag %s: %w", name, err)
	}
	return id, nil
}
