package app_test

import (
	"crypto/ed25519"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/tx"
)

// step is one transaction of the blocks that take the stable chain through
// every forge action and transaction kind: a forge action (action set),
// or a transaction of kind from its sender.
type step struct {
	by      wallet // a forge action's actor, or the sender
	action  string // a forge action; "" for a transaction of kind
	payload string
	// self: under own-keys rules the actor signs the action itself
	// (forge.Sensitive, or a change of an organization's owners); before
	// them, and otherwise, the operator relays it.
	self bool
	// signer, when set, signs the action for its actor under a delegation.
	signer *wallet
	kind   tx.Kind
	msg    map[string]any
}

// action is actor's forge action, relayed by the operator.
func action(actor wallet, name, payload string) step {
	return step{by: actor, action: name, payload: payload}
}

// ownAction is actor's forge action that needs its own signature under
// own-keys rules.
func ownAction(actor wallet, name, payload string) step {
	return step{by: actor, action: name, payload: payload, self: true}
}

// delegated is actor's forge action signed by signer, under actor's
// delegation.
func delegated(signer, actor wallet, name, payload string) step {
	return step{by: actor, action: name, payload: payload, signer: &signer}
}

// txOf is a transaction of kind from from.
func txOf(from wallet, kind tx.Kind, msg map[string]any) step {
	return step{by: from, kind: kind, msg: msg}
}

// Values the steps name, fixed so the scenario is the same on every run.
const (
	sha3     = "3333333333333333333333333333333333333333"
	sha4     = "4444444444444444444444444444444444444444"
	sha5     = "5555555555555555555555555555555555555555"
	fileCID  = "bafybeibfgjl63fon76xuindyyg3rcivfobkdqbzxjlmbylhzmwmbijglge" // dag-pb sha2-256
	rawCID   = "bafkreibme22gw2h7y2h7tg2fhqotaqjucnbc24deqo72b6mkl2egezxhvy" // raw sha2-256
	cborCID  = "bafyreibme22gw2h7y2h7tg2fhqotaqjucnbc24deqo72b6mkl2egezxhvy" // dag-cbor sha2-256
	digest64 = "abababababababababababababababababababababababababababababababab"
)

// sshKey is an ed25519 public key in authorized_keys form, from a fixed seed.
func sshKey(t testing.TB, seed byte) string {
	t.Helper()
	s := make([]byte, ed25519.SeedSize)
	s[0] = seed
	pk, err := ssh.NewPublicKey(ed25519.NewKeyFromSeed(s).Public())
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(ssh.MarshalAuthorizedKey(pk)))
}

// decimal is n as a transaction's message spells a number.
func decimal(n uint64) string { return strconv.FormatUint(n, 10) }

// coverSteps are the blocks, from height h0 on, in which every forge action
// and every transaction kind succeeds at least once
// (TestStableChainCoversEveryAction). A new action or kind is one more
// step. ownKeys says the chain runs under own-keys rules from genesis;
// otherwise the blocks also pass the own-keys upgrade, so the Delegate and
// Undelegate of the last block succeed on the old chain too.
func coverSteps(t testing.TB, alice, bob, carol wallet, h0 uint64, ownKeys bool) [][]step {
	t.Helper()
	a, b, c := alice.addr.Hex(), bob.addr.Hex(), carol.addr.Hex()
	propose := func(from wallet, typ, title, payload string) step {
		return txOf(from, tx.KindPropose, map[string]any{"proposalType": typ, "title": title, "description": "", "payload": payload, "deposit": "100"})
	}
	vote := func(from wallet, id uint64) step {
		return txOf(from, tx.KindVote, map[string]any{"proposal": decimal(id), "option": "yes"})
	}
	// Proposals 5 to 7 (the original blocks made 4); 8 is the upgrade of
	// the old chain.
	const moderatorRole, organizerRole, grant, ownKeysUpgrade, pendingTransfersUpgrade = 5, 6, 7, 8, 9
	const upgradeHeight = 8 // after h0: after every action the operator relays

	blocks := [][]step{
		// h0: alice's repository "cover" (2) and bob's fork (3); the
		// community roles and a grant are proposed.
		{
			action(alice, "repo.create", `{"name":"cover","description":"every action","defaultBranch":"main"}`),
			action(alice, "repo.collaborator.set", `{"repo":2,"user":"`+b+`","permission":"write"}`),
			action(alice, "repo.collaborator.set", `{"repo":2,"user":"`+c+`","permission":"maintain"}`),
			action(alice, "repo.push", `{"repo":2,"ref":"refs/heads/main","old":"`+forge.ZeroSHA+`","new":"`+sha3+`","commits":[{"sha":"`+sha3+`","author":"`+a+`"}]}`),
			action(alice, "repo.update", `{"repo":2,"description":"every action, once","website":"https://cover.example"}`),
			action(alice, "repo.topics", `{"repo":2,"topics":["go","forge"]}`),
			action(alice, "repo.manifest", `{"repo":2,"manifest":"`+cborCID+`"}`),
			action(alice, "repo.lfs", `{"repo":2,"objects":[{"oid":"`+digest64+`","size":3,"cid":"`+rawCID+`"}]}`),
			action(carol, "repo.star", `{"repo":2}`),
			action(carol, "repo.watch", `{"repo":2}`),
			action(bob, "repo.fork", `{"repo":2,"name":"cover-fork","description":"bob's"}`),
			propose(alice, "role", "A forum moderator", `{"account":"`+b+`","role":"forum_moderator","action":"grant"}`),
			propose(alice, "role", "An event organizer", `{"account":"`+c+`","role":"event_organizer","action":"grant"}`),
			propose(bob, "grant", "Docs", `{"milestones":"[{\"description\":\"Write the docs\",\"amount\":\"1000\",\"recipient\":\"`+c+`\"}]","reviewers":"`+a+`","expiry":"`+decimal(h0+100)+`"}`),
		},
		// h0+1: votes; issues, labels, milestones, comments, reactions.
		{
			vote(alice, moderatorRole), vote(bob, moderatorRole),
			vote(alice, organizerRole), vote(bob, organizerRole),
			vote(alice, grant), vote(bob, grant),
			action(carol, "repo.unstar", `{"repo":2}`),
			action(carol, "repo.unwatch", `{"repo":2}`),
			action(carol, "issue.create", `{"repo":2,"title":"It crashes","body":"On start."}`),
			action(bob, "issue.create", `{"repo":2,"title":"Tidy up"}`),
			action(alice, "label.create", `{"repo":2,"name":"bug","color":"#ee0701","description":"Broken"}`),
			action(alice, "label.create", `{"repo":2,"name":"docs","color":"#0075ca"}`),
			action(alice, "label.edit", `{"repo":2,"label":1,"name":"defect","exclusive":true}`),
			action(alice, "label.delete", `{"repo":2,"label":2}`),
			action(alice, "milestone.create", `{"repo":2,"title":"v1","description":"first cut","due":1767225600}`),
			action(alice, "milestone.create", `{"repo":2,"title":"v2"}`),
			action(alice, "milestone.edit", `{"repo":2,"milestone":1,"state":"closed"}`),
			action(alice, "milestone.delete", `{"repo":2,"milestone":2}`),
			action(alice, "issue.edit", `{"repo":2,"number":1,"labels":[1],"assignees":["`+b+`"],"milestone":1}`),
			action(carol, "issue.comment", `{"repo":2,"number":1,"body":"me too"}`),
			action(carol, "comment.edit", `{"repo":2,"comment":1,"body":"me too, on Linux"}`),
			action(bob, "issue.comment", `{"repo":2,"number":1,"body":"looking"}`),
			action(bob, "comment.delete", `{"repo":2,"comment":2}`),
			action(bob, "reaction.add", `{"repo":2,"number":1,"content":"+1"}`),
			action(bob, "reaction.add", `{"repo":2,"number":1,"comment":1,"content":"heart"}`),
			action(bob, "reaction.remove", `{"repo":2,"number":1,"content":"+1"}`),
			action(alice, "issue.pin", `{"repo":2,"number":1}`),
			action(alice, "issue.pin", `{"repo":2,"number":2}`),
			action(alice, "issue.unpin", `{"repo":2,"number":2}`),
			action(carol, "issue.subscribe", `{"repo":2,"number":2}`),
			action(carol, "issue.unsubscribe", `{"repo":2,"number":2}`),
			action(bob, "issue.close", `{"repo":2,"number":2,"reason":"not_planned"}`),
			action(bob, "issue.reopen", `{"repo":2,"number":2}`),
		},
		// h0+2: bounties on both issues; a pull request that fixes #1.
		{
			txOf(alice, tx.KindBountyFund, map[string]any{"repo": "2", "issue": "1", "amount": "500", "expiry": decimal(h0 + 100)}),
			txOf(bob, tx.KindBountyFund, map[string]any{"repo": "2", "issue": "2", "amount": "300", "expiry": decimal(h0 + 3)}),
			action(bob, "repo.push", `{"repo":2,"ref":"refs/heads/fix","old":"`+forge.ZeroSHA+`","new":"`+sha4+`"}`),
			action(bob, "pr.create", `{"repo":2,"title":"Fix the crash","body":"Fixes #1.","headBranch":"fix","headSha":"`+sha4+`","baseSha":"`+sha3+`"}`),
			action(bob, "pr.update", `{"repo":2,"number":3,"headSha":"`+sha5+`"}`),
			action(bob, "pr.review.request", `{"repo":2,"number":3,"reviewers":["`+a+`","`+c+`"]}`),
			action(bob, "pr.review.unrequest", `{"repo":2,"number":3,"reviewers":["`+a+`"]}`),
			action(bob, "status.create", `{"repo":2,"sha":"`+sha5+`","state":"success","context":"ci","description":"passed","targetUrl":"https://ci.example/1"}`),
			action(alice, "branch.protect", `{"repo":2,"branch":"main","requiredApprovals":1}`),
			action(alice, "branch.protect", `{"repo":2,"branch":"release/*","enablePush":true,"pushWhitelist":["`+b+`"]}`),
			action(alice, "branch.unprotect", `{"repo":2,"branch":"release/*"}`),
		},
		// h0+3: a review dismissed and given back; the merge pays #1's bounty.
		{
			action(carol, "pr.review", `{"repo":2,"number":3,"state":"approve","body":"ok","commitSha":"`+sha5+`","comments":[{"path":"main.go","line":3,"side":"new","body":"nice"}]}`),
			action(alice, "pr.review.dismiss", `{"repo":2,"number":3,"review":4,"reviewer":"`+c+`","message":"stale"}`),
			action(alice, "pr.review.undismiss", `{"repo":2,"number":3,"review":4}`),
			action(bob, "pr.close", `{"repo":2,"number":3}`),
			action(bob, "pr.reopen", `{"repo":2,"number":3}`),
			action(alice, "pr.merge", `{"repo":2,"number":3,"style":"merge","mergeSha":"6666666666666666666666666666666666666666"}`),
		},
		// h0+4: releases, an organization and its teams, keys, follows.
		{
			action(alice, "release.create", `{"repo":2,"tagName":"v1.0","target":"main","title":"First","note":"notes"}`),
			action(alice, "release.edit", `{"repo":2,"id":1,"title":"First!","prerelease":true}`),
			action(alice, "release.asset.add", `{"repo":2,"release":1,"name":"tool.bin","size":10,"cid":"`+fileCID+`","sha256":"`+digest64+`"}`),
			action(alice, "release.asset.edit", `{"repo":2,"release":1,"id":1,"name":"tool-linux.bin"}`),
			action(alice, "release.asset.delete", `{"repo":2,"release":1,"id":1}`),
			action(alice, "release.create", `{"repo":2,"tagName":"v0.9"}`),
			action(alice, "release.delete", `{"repo":2,"id":2}`),
			action(alice, "org.create", `{"name":"acme","fullName":"Acme","description":"tools","website":"https://acme.example","location":"Berlin","visibility":"public"}`),
			action(alice, "org.update", `{"org":1,"description":"tools and more"}`),
			action(alice, "team.create", `{"org":1,"name":"devs","permission":"write","units":["repo.code"]}`),
			action(alice, "team.edit", `{"team":2,"description":"who writes","canCreateOrgRepo":true}`),
			action(alice, "team.member.add", `{"team":2,"user":"`+b+`"}`),
			action(alice, "repo.create", `{"name":"app","org":1}`),
			action(alice, "team.repo.add", `{"team":2,"repo":4}`),
			action(alice, "team.repo.remove", `{"team":2,"repo":4}`),
			action(alice, "team.member.remove", `{"team":2,"user":"`+b+`"}`),
			ownAction(alice, "team.member.add", `{"team":1,"user":"`+c+`"}`), // the Owners team
			ownAction(alice, "org.member.remove", `{"org":1,"user":"`+c+`"}`),
			action(alice, "team.create", `{"org":1,"name":"tmp","permission":"read"}`),
			action(alice, "team.delete", `{"team":3}`),
			action(alice, "org.create", `{"name":"gone","visibility":"public"}`),
			ownAction(alice, "org.delete", `{"org":2}`),
			action(alice, "repo.create", `{"name":"gift"}`),
			ownAction(alice, "repo.transfer", `{"repo":5,"newOwner":"`+b+`"}`),
			action(alice, "repo.create", `{"name":"scratch"}`),
			ownAction(alice, "repo.delete", `{"repo":6}`),
			ownAction(alice, "key.add", `{"title":"laptop","key":"`+sshKey(t, 1)+`"}`),
			ownAction(bob, "key.add", `{"title":"desk","key":"`+sshKey(t, 2)+`"}`),
			action(bob, "key.delete", `{"id":2}`),
			action(carol, "user.follow", `{"user":"`+a+`"}`),
			action(carol, "user.follow", `{"user":"`+b+`"}`),
			action(carol, "user.unfollow", `{"user":"`+b+`"}`),
			action(alice, "user.emails", `{"emails":["alice@example.org"]}`),
		},
		// h0+5: bob's share of #2's bounty expired; a listing.
		{
			txOf(bob, tx.KindBountyRefund, map[string]any{"repo": "2", "issue": "2"}),
			action(bob, "listing.publish", `{"name":"Build Bot","description":"Builds every push.","events":["push","pull_request"],"url_template":"https://ci.example/hook/{owner}/{repo}?id={repo_id}","homepage":"https://ci.example"}`),
			action(bob, "listing.update", `{"id":1,"name":"CI Bot","events":["push"]}`),
			action(alice, "listing.install", `{"listing":1,"repo":2}`),
			action(alice, "listing.uninstall", `{"listing":1,"repo":2}`),
			action(bob, "listing.delete", `{"id":1}`),
		},
		// h0+6: the roles and the grant are in force: events, the forum, a
		// milestone of the grant approved and paid.
		{
			txOf(alice, tx.KindGrantApprove, map[string]any{"grant": decimal(grant), "milestone": "0"}),
			action(carol, "event.create", `{"title":"Meetup","description":"Talks","startsAt":1900000000,"endsAt":1900003600,"timezone":"Europe/Berlin","place":"Berlin"}`),
			action(carol, "event.edit", `{"event":1,"title":"Meetup 2","onlineUrl":"https://meet.example/x"}`),
			action(bob, "event.rsvp", `{"event":1,"status":"going"}`),
			action(carol, "event.cancel", `{"event":1}`),
			action(carol, "forum.topic.create", `{"category":"help","title":"How do I push?","body":"It fails."}`),
			action(carol, "forum.topic.edit", `{"topic":1,"body":"It fails with 403."}`),
			action(bob, "forum.post.create", `{"topic":1,"body":"Try again."}`),
			action(bob, "forum.post.edit", `{"post":1,"body":"Try again with your key."}`),
			action(carol, "forum.topic.answer", `{"topic":1,"post":1}`),
			action(bob, "forum.topic.pin", `{"topic":1}`),
			action(bob, "forum.topic.unpin", `{"topic":1}`),
			action(bob, "forum.topic.lock", `{"topic":1}`),
			action(bob, "forum.topic.unlock", `{"topic":1}`),
			action(bob, "forum.topic.move", `{"topic":1,"category":"general"}`),
		},
		// h0+7: nothing; the old chain's upgrade is at h0+8.
		{},
		// h0+8: a delegation given, used and revoked.
		{
			txOf(alice, tx.KindDelegate, map[string]any{"delegate": c, "scopes": "issue", "expiry": decimal(h0 + 100)}),
			delegated(carol, alice, "issue.comment", `{"repo":2,"number":2,"body":"still there"}`),
			txOf(alice, tx.KindUndelegate, map[string]any{"account": a, "delegate": c}),
			// pending-transfers: an offer the recipient rejects, then one
			// he accepts, each signed by its own author (under both rule
			// sets from here on).
			delegated(alice, alice, "repo.create", `{"name":"offer"}`),
			delegated(alice, alice, "repo.transfer", `{"repo":7,"newOwner":"`+b+`"}`),
			delegated(bob, bob, "repo.transfer.reject", `{"repo":7}`),
			delegated(alice, alice, "repo.transfer", `{"repo":7,"newOwner":"`+b+`"}`),
			delegated(bob, bob, "repo.transfer.accept", `{"repo":7}`),
		},
	}
	if !ownKeys {
		blocks[0] = append(blocks[0],
			propose(alice, "upgrade", "Own keys", `{"name":"own-keys","height":"`+decimal(h0+upgradeHeight)+`"}`),
			propose(alice, "upgrade", "Pending transfers", `{"name":"pending-transfers","height":"`+decimal(h0+upgradeHeight)+`"}`))
		blocks[1] = append(blocks[1], vote(alice, ownKeysUpgrade), vote(bob, ownKeysUpgrade),
			vote(alice, pendingTransfersUpgrade), vote(bob, pendingTransfersUpgrade))
	}
	return blocks
}
