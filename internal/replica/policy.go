package replica

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/index"
)

// Policy says which public repositories a node seeds: holds their git data
// and keeps it at the chain's refs. It follows Radicle's seeding policies:
// a default (seed everything, or nothing) and rules that allow or block an
// owner's repositories or one repository, the most specific rule winning.
//
// Terms, as --seed takes them (repeated, or separated by commas):
//
//	all                 seed every public repository (the default)
//	none                seed none but those allowed by a rule
//	owner:alice         seed alice's repositories (a username or an address;
//	0xAbC…              a bare address is an owner too)
//	repo:alice/demo     seed that repository
//	!owner:… !repo:…    block instead: never seed them
//
// A repository rule beats an owner rule, which beats the default; block
// beats allow at the same level. Without all or none, rules that only
// allow make the default none (seed just those), and rules that only block
// leave it all. The last of all and none given is the default.
type Policy struct {
	seedAll bool
	rules   []rule
}

type rule struct {
	block bool
	owner string // a lowercase username or address
	name  string // a lowercase repository name; "" for an owner rule
}

// SeedAll is the default policy: every public repository.
var SeedAll = Policy{seedAll: true}

// nameRule is the git server's rule for names in URLs.
var nameRule = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,100}$`)

// ParsePolicy reads the terms of specs, each one or more terms separated by
// commas. No terms at all is SeedAll.
func ParsePolicy(specs ...string) (Policy, error) {
	p := Policy{}
	var defaults, allows int
	for _, spec := range specs {
		for _, term := range strings.Split(spec, ",") {
			term = strings.TrimSpace(term)
			if term == "" {
				continue
			}
			switch strings.ToLower(term) {
			case "all":
				p.seedAll, defaults = true, defaults+1
				continue
			case "none":
				p.seedAll, defaults = false, defaults+1
				continue
			}
			r, err := parseRule(term)
			if err != nil {
				return Policy{}, err
			}
			if !r.block {
				allows++
			}
			p.rules = append(p.rules, r)
		}
	}
	if defaults == 0 {
		p.seedAll = allows == 0
	}
	return p, nil
}

func parseRule(term string) (rule, error) {
	body, block := strings.CutPrefix(term, "!")
	kind, value, hasKind := strings.Cut(body, ":")
	if !hasKind {
		kind, value = "owner", body
		if !common.IsHexAddress(value) {
			return rule{}, fmt.Errorf("seeding policy %q: use all, none, owner:<name or address>, repo:<owner>/<name>, or ! before a rule to block", term)
		}
	}
	r := rule{block: block}
	switch strings.ToLower(kind) {
	case "owner":
		if !isOwner(value) {
			return rule{}, fmt.Errorf("seeding policy %q: %q is not a username or an address", term, value)
		}
		r.owner = ownerKey(value)
	case "repo":
		owner, name, ok := strings.Cut(value, "/")
		if !ok || !isOwner(owner) || !nameRule.MatchString(name) || name == "." || name == ".." {
			return rule{}, fmt.Errorf("seeding policy %q: a repository is named owner/name, e.g. repo:alice/demo", term)
		}
		r.owner, r.name = ownerKey(owner), strings.ToLower(strings.TrimSuffix(name, ".git"))
	default:
		//lint:ignore ST1005 the colon is the "repo:" prefix's own
		return rule{}, fmt.Errorf("seeding policy %q: unknown kind %q; use owner: or repo:", term, kind)
	}
	return r, nil
}

// ownerKey is how a rule keeps an owner: an address lowercase with its 0x,
// a username lowercase.
func ownerKey(s string) string {
	if common.IsHexAddress(s) {
		return strings.ToLower(common.HexToAddress(s).Hex())
	}
	return strings.ToLower(s)
}

func isOwner(s string) bool {
	return common.IsHexAddress(s) || nameRule.MatchString(s) && s != "." && s != ".."
}

// Seeds reports whether the policy seeds r. Private repositories are
// never seeded, whatever the policy says.
func (p Policy) Seeds(r index.Repo) bool {
	if r.Private {
		return false
	}
	owner := [2]string{ownerKey(r.Owner.Address), strings.ToLower(r.Owner.Username)}
	name := strings.ToLower(r.Name)
	var ownerAllow, ownerBlock, repoAllow, repoBlock bool
	for _, ru := range p.rules {
		if !ru.matchesOwner(owner) {
			continue
		}
		switch {
		case ru.name == "" && ru.block:
			ownerBlock = true
		case ru.name == "":
			ownerAllow = true
		case ru.name != name:
		case ru.block:
			repoBlock = true
		default:
			repoAllow = true
		}
	}
	switch {
	case repoBlock:
		return false
	case repoAllow:
		return true
	case ownerBlock:
		return false
	case ownerAllow:
		return true
	}
	return p.seedAll
}

// matchesOwner: owner is the repository's owner as its address and its
// username, both as ownerKey gives them.
func (ru rule) matchesOwner(owner [2]string) bool {
	return ru.owner == owner[0] || ru.owner == owner[1]
}

// String gives the policy as terms ParsePolicy reads back.
func (p Policy) String() string {
	terms := []string{"none"}
	if p.seedAll {
		terms[0] = "all"
	}
	for _, r := range p.rules {
		t := "owner:" + r.owner
		if r.name != "" {
			t = "repo:" + r.owner + "/" + r.name
		}
		if r.block {
			t = "!" + t
		}
		terms = append(terms, t)
	}
	return strings.Join(terms, ",")
}
