package replica

import (
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/index"
)

func TestSeedingPolicy(t *testing.T) {
	t.Parallel()
	alice := "0x00000000000000000000000000000000000A11CE"
	bob := "0x0000000000000000000000000000000000000B0B"
	repo := func(owner, username, name string) index.Repo {
		return index.Repo{Owner: index.User{Address: owner, Username: username}, Name: name}
	}
	aliceDemo, aliceBig, bobDemo := repo(alice, "alice", "demo"), repo(alice, "alice", "big"), repo(bob, "bob", "demo")
	for _, tc := range []struct {
		specs []string
		seeds []index.Repo
		skips []index.Repo
	}{
		{nil, []index.Repo{aliceDemo, aliceBig, bobDemo}, nil},
		{[]string{"all"}, []index.Repo{aliceDemo, aliceBig, bobDemo}, nil},
		{[]string{"none"}, nil, []index.Repo{aliceDemo, aliceBig, bobDemo}},
		// Allow rules alone seed just what they name.
		{[]string{"owner:alice"}, []index.Repo{aliceDemo, aliceBig}, []index.Repo{bobDemo}},
		{[]string{"OWNER:Alice"}, []index.Repo{aliceDemo, aliceBig}, []index.Repo{bobDemo}},
		{[]string{strings.ToLower(alice)}, []index.Repo{aliceDemo, aliceBig}, []index.Repo{bobDemo}},
		{[]string{"owner:" + alice[2:]}, []index.Repo{aliceDemo, aliceBig}, []index.Repo{bobDemo}},
		{[]string{"repo:alice/demo"}, []index.Repo{aliceDemo}, []index.Repo{aliceBig, bobDemo}},
		{[]string{"repo:" + alice + "/Demo.git", "repo:bob/demo"}, []index.Repo{aliceDemo, bobDemo}, []index.Repo{aliceBig}},
		// Block rules alone leave the default at all.
		{[]string{"!owner:bob"}, []index.Repo{aliceDemo, aliceBig}, []index.Repo{bobDemo}},
		{[]string{"!repo:alice/big"}, []index.Repo{aliceDemo, bobDemo}, []index.Repo{aliceBig}},
		// The most specific rule wins; block beats allow at one level.
		{[]string{"all,!owner:alice,repo:alice/demo"}, []index.Repo{aliceDemo, bobDemo}, []index.Repo{aliceBig}},
		{[]string{"owner:alice", "!repo:alice/big"}, []index.Repo{aliceDemo}, []index.Repo{aliceBig, bobDemo}},
		{[]string{"owner:bob,!owner:bob"}, nil, []index.Repo{aliceDemo, aliceBig, bobDemo}},
		// The last default given counts.
		{[]string{"none", "all"}, []index.Repo{aliceDemo, aliceBig, bobDemo}, nil},
		{[]string{"owner:alice", "all"}, []index.Repo{aliceDemo, aliceBig, bobDemo}, nil},
	} {
		p, err := ParsePolicy(tc.specs...)
		if err != nil {
			t.Fatalf("%q: %v", tc.specs, err)
		}
		for _, r := range tc.seeds {
			if !p.Seeds(r) {
				t.Errorf("%q (%s) does not seed %s/%s", tc.specs, p, r.Owner.Username, r.Name)
			}
		}
		for _, r := range tc.skips {
			if p.Seeds(r) {
				t.Errorf("%q (%s) seeds %s/%s", tc.specs, p, r.Owner.Username, r.Name)
			}
		}
		// String reads back as the same policy.
		back, err := ParsePolicy(p.String())
		if err != nil || back.String() != p.String() {
			t.Errorf("%q: String %q reads back as %q, %v", tc.specs, p, back, err)
		}
	}
}

func TestSeedingPolicyNeverSeedsPrivate(t *testing.T) {
	t.Parallel()
	private := index.Repo{Owner: index.User{Address: "0x00000000000000000000000000000000000A11CE", Username: "alice"}, Name: "secret", Private: true}
	for _, spec := range []string{"all", "owner:alice", "repo:alice/secret"} {
		p, _ := ParsePolicy(spec)
		if p.Seeds(private) {
			t.Errorf("%s seeds a private repository", spec)
		}
	}
}

func TestSeedingPolicyRefusesBadTerms(t *testing.T) {
	t.Parallel()
	for _, spec := range []string{"alice", "owner:", "owner:a/b", "repo:alice", "repo:alice/", "repo:/demo", "repo:alice/..",
		"user:alice", "!all", "owner:al ice", "repo:alice/de mo"} {
		if _, err := ParsePolicy(spec); err == nil {
			t.Errorf("%q was accepted", spec)
		}
	}
}
