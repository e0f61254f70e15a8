package store

import "testing"

// A lookup notes the generation before it reads the database; a write that
// commits in between (and forgets) must keep what that lookup read out of
// memory, since the row it read may be the one just deleted. The race is
// too narrow to hit from outside, so this drives the interleaving itself.
func TestALookupOlderThanAForgetRemembersNothing(t *testing.T) {
	c := newCredentials()
	gen := c.generation()
	c.forget() // a revocation committed while the lookup read the row
	c.putToken(gen, "h", AccessToken{ID: 1})
	c.putSession(gen, "h", Session{ID: 1})
	c.putUser(gen, User{ID: 1})
	if _, ok := c.token("h"); ok {
		t.Fatal("a token read before a revocation was remembered after it")
	}
	if _, ok := c.session("h"); ok {
		t.Fatal("a session read before a revocation was remembered after it")
	}
	if _, ok := c.user(1); ok {
		t.Fatal("a user read before a profile edit was remembered after it")
	}
	c.putToken(c.generation(), "h", AccessToken{ID: 1})
	if _, ok := c.token("h"); !ok {
		t.Fatal("a lookup with no write since it began was not remembered")
	}
}
