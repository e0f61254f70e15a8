package blocks

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ipfs/go-cid"
	"github.com/ipld/go-ipld-prime/datamodel"
	"github.com/ipld/go-ipld-prime/fluent/qp"
	cidlink "github.com/ipld/go-ipld-prime/linking/cid"
	"github.com/ipld/go-ipld-prime/multicodec"
)

// The git-raw codec as IPLD data, so that boxo's traversals (the gateway's
// CAR responses) can follow a git object's links. Kubo reads this codec
// with go-ipld-git, which is not on this machine's module proxy; the shapes
// here are go-ipld-git's, so a path such as /ipfs/{commit}/tree/README.md/hash
// names the same thing in both:
//
//	commit: {tree: &Tree, parents: [&Commit], message, author, committer,
//	         encoding?, signature?, other: [String]}
//	tree:   {<name>: {mode: String, hash: &Any}}, in git's entry order
//	tag:    {object: &Any, type, tag, tagger?, message}
//	blob:   the whole block as bytes
//
// A commit's map starts with tree then parents, and a tag's with object:
// a traversal follows links in map order, which is what makes the CAR walk
// commit, tree, the tree's entries, then the parents.
//
// One difference from go-ipld-git: a submodule's entry (mode 160000) keeps
// its commit id as a hex string, not a link, because that commit lives in
// another repository and is never in this store; a link would make every
// walk through the tree fail. Decoding only: blocks are written from git,
// never encoded from the data model.

func init() {
	multicodec.RegisterDecoder(GitRaw, DecodeGitRaw)
}

const gitlinkMode = "160000"

// DecodeGitRaw is the go-ipld-prime decoder for the git-raw codec: it reads
// one loose git object, "<type> <size>\x00<content>".
func DecodeGitRaw(na datamodel.NodeAssembler, r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("git-raw: read block: %w", err)
	}
	kind, body, err := splitLoose(data)
	if err != nil {
		return err
	}
	var build qp.Assemble
	switch kind {
	case "blob":
		build = qp.Bytes(data)
	case "tree":
		var entries []treeEntry
		if entries, err = parseTree(body); err == nil {
			build = treeNode(entries)
		}
	case "commit":
		var c commit
		if c, err = parseCommit(body); err == nil {
			build = commitNode(c)
		}
	case "tag":
		var t tag
		if t, err = parseTag(body); err == nil {
			build = tagNode(t)
		}
	default:
		err = fmt.Errorf("git-raw: unknown object type %q", kind)
	}
	if err != nil {
		return err
	}
	return assemble(na, kind, build)
}

// gitLinks are the links of a git-raw block in the data model's order,
// which is the CAR walk's: what a traversal of DecodeGitRaw's node finds,
// without building the node.
func gitLinks(data []byte) ([]cid.Cid, error) {
	kind, body, err := splitLoose(data)
	if err != nil {
		return nil, err
	}
	var ids []string
	switch kind {
	case "blob":
	case "tree":
		entries, err := parseTree(body)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if e.mode != gitlinkMode {
				ids = append(ids, e.id)
			}
		}
	case "commit":
		c, err := parseCommit(body)
		if err != nil {
			return nil, err
		}
		ids = append([]string{c.tree}, c.parents...)
	case "tag":
		t, err := parseTag(body)
		if err != nil {
			return nil, err
		}
		ids = []string{t.object}
	default:
		return nil, fmt.Errorf("git-raw: unknown object type %q", kind)
	}
	links := make([]cid.Cid, len(ids))
	for i, id := range ids {
		links[i] = CIDForGitObject(id)
	}
	return links, nil
}

// assemble runs a qp builder, which reports an assembler's error by
// panicking with it, and returns that error instead.
func assemble(na datamodel.NodeAssembler, kind string, build qp.Assemble) (err error) {
	defer func() {
		if r := recover(); r != nil {
			perr, ok := r.(error)
			if !ok {
				panic(r)
			}
			err = fmt.Errorf("git-raw: assemble %s: %w", kind, perr)
		}
	}()
	build(na)
	return nil
}

// splitLoose checks a loose object's header against its content.
func splitLoose(data []byte) (kind string, body []byte, err error) {
	header, body, ok := bytes.Cut(data, []byte{0})
	if !ok {
		return "", nil, errors.New("git-raw: no object header")
	}
	kind, size, ok := strings.Cut(string(header), " ")
	if !ok {
		return "", nil, fmt.Errorf("git-raw: bad object header %q", header)
	}
	n, err := strconv.Atoi(size)
	if err != nil || n != len(body) {
		return "", nil, fmt.Errorf("git-raw: header says %q bytes, the object has %d", size, len(body))
	}
	return kind, body, nil
}

type treeEntry struct{ name, mode, id string }

func parseTree(body []byte) ([]treeEntry, error) {
	var entries []treeEntry
	seen := map[string]bool{}
	for len(body) > 0 {
		mode, rest, ok := bytes.Cut(body, []byte{' '})
		if !ok {
			return nil, errors.New("git-raw: tree entry without a mode")
		}
		name, rest, ok := bytes.Cut(rest, []byte{0})
		if !ok || len(rest) < 20 {
			return nil, errors.New("git-raw: truncated tree entry")
		}
		e := treeEntry{name: string(name), mode: string(mode), id: hex.EncodeToString(rest[:20])}
		if seen[e.name] {
			return nil, fmt.Errorf("git-raw: tree names %q twice", e.name)
		}
		seen[e.name] = true
		entries = append(entries, e)
		body = rest[20:]
	}
	return entries, nil
}

// treeNode maps each entry's name to its mode and object.
func treeNode(entries []treeEntry) qp.Assemble {
	return qp.Map(int64(len(entries)), func(ma datamodel.MapAssembler) {
		for _, e := range entries {
			hash := qp.Link(gitLink(e.id))
			if e.mode == gitlinkMode {
				hash = qp.String(e.id)
			}
			qp.MapEntry(ma, e.name, qp.Map(2, func(ma datamodel.MapAssembler) {
				qp.MapEntry(ma, "mode", qp.String(e.mode))
				qp.MapEntry(ma, "hash", hash)
			}))
		}
	})
}

// header is one "key value" line of a commit or tag, with its
// continuation lines (those starting with a space) joined by newlines.
type header struct{ key, value string }

// splitHeaders returns a commit's or tag's header lines and its message.
func splitHeaders(body []byte) ([]header, string) {
	head, message, _ := strings.Cut(string(body), "\n\n")
	var hs []header
	for _, line := range strings.Split(head, "\n") {
		if cont, ok := strings.CutPrefix(line, " "); ok && len(hs) > 0 {
			hs[len(hs)-1].value += "\n" + cont
			continue
		}
		if line == "" {
			continue
		}
		k, v, _ := strings.Cut(line, " ")
		hs = append(hs, header{k, v})
	}
	return hs, message
}

type commit struct {
	tree, message                          string
	parents, other                         []string
	author, committer, encoding, signature *string
}

func parseCommit(body []byte) (commit, error) {
	hs, message := splitHeaders(body)
	c := commit{message: message}
	for _, h := range hs {
		switch h.key {
		case "tree":
			c.tree = h.value
		case "parent":
			c.parents = append(c.parents, h.value)
		case "author":
			c.author = &h.value
		case "committer":
			c.committer = &h.value
		case "encoding":
			c.encoding = &h.value
		case "gpgsig":
			c.signature = &h.value
		default:
			c.other = append(c.other, h.key+" "+h.value)
		}
	}
	if !gitLink(c.tree).Cid.Defined() {
		return c, fmt.Errorf("git-raw: commit names tree %q", c.tree)
	}
	for _, p := range c.parents {
		if !gitLink(p).Cid.Defined() {
			return c, fmt.Errorf("git-raw: commit names parent %q", p)
		}
	}
	return c, nil
}

func commitNode(c commit) qp.Assemble {
	return qp.Map(9, func(ma datamodel.MapAssembler) {
		qp.MapEntry(ma, "tree", qp.Link(gitLink(c.tree)))
		qp.MapEntry(ma, "parents", qp.List(int64(len(c.parents)), func(la datamodel.ListAssembler) {
			for _, p := range c.parents {
				qp.ListEntry(la, qp.Link(gitLink(p)))
			}
		}))
		qp.MapEntry(ma, "message", qp.String(c.message))
		if c.author != nil {
			qp.MapEntry(ma, "author", personNode(*c.author))
		}
		if c.committer != nil {
			qp.MapEntry(ma, "committer", personNode(*c.committer))
		}
		if c.encoding != nil {
			qp.MapEntry(ma, "encoding", qp.String(*c.encoding))
		}
		if c.signature != nil {
			qp.MapEntry(ma, "signature", qp.String(*c.signature))
		}
		qp.MapEntry(ma, "other", stringList(c.other))
	})
}

type tag struct {
	object, typ, name, message string
	tagger                     *string
}

func parseTag(body []byte) (tag, error) {
	hs, message := splitHeaders(body)
	t := tag{message: message}
	for _, h := range hs {
		switch h.key {
		case "object":
			t.object = h.value
		case "type":
			t.typ = h.value
		case "tag":
			t.name = h.value
		case "tagger":
			t.tagger = &h.value
		}
	}
	if !gitLink(t.object).Cid.Defined() {
		return t, fmt.Errorf("git-raw: tag names object %q", t.object)
	}
	return t, nil
}

func tagNode(t tag) qp.Assemble {
	return qp.Map(5, func(ma datamodel.MapAssembler) {
		qp.MapEntry(ma, "object", qp.Link(gitLink(t.object)))
		qp.MapEntry(ma, "type", qp.String(t.typ))
		qp.MapEntry(ma, "tag", qp.String(t.name))
		if t.tagger != nil {
			qp.MapEntry(ma, "tagger", personNode(*t.tagger))
		}
		qp.MapEntry(ma, "message", qp.String(t.message))
	})
}

// personNode splits "Name <email> 1503667703 +0200" as go-ipld-git does;
// a line git would not write keeps what it has in name.
func personNode(line string) qp.Assemble {
	name, email, date, zone := line, "", "", ""
	if lt, gt := strings.IndexByte(line, '<'), strings.LastIndexByte(line, '>'); lt >= 0 && gt > lt {
		name, email = strings.TrimSpace(line[:lt]), line[lt+1:gt]
		when := strings.Fields(line[gt+1:])
		if len(when) > 0 {
			date = when[0]
		}
		if len(when) > 1 {
			zone = when[1]
		}
	}
	return qp.Map(4, func(ma datamodel.MapAssembler) {
		qp.MapEntry(ma, "name", qp.String(name))
		qp.MapEntry(ma, "email", qp.String(email))
		qp.MapEntry(ma, "date", qp.String(date))
		qp.MapEntry(ma, "timezone", qp.String(zone))
	})
}

func stringList(ss []string) qp.Assemble {
	return qp.List(int64(len(ss)), func(la datamodel.ListAssembler) {
		for _, s := range ss {
			qp.ListEntry(la, qp.String(s))
		}
	})
}

// gitLink is the link to the object with this hex id; its Cid is
// undefined when id is not one.
func gitLink(id string) cidlink.Link {
	return cidlink.Link{Cid: CIDForGitObject(id)}
}
