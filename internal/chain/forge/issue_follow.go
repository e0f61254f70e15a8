package forge

import (
	"slices"

	"github.com/ethereum/go-ethereum/common"
)

// Pinned issues and issue subscriptions. Writers pin up to MaxPinned
// issues or pull requests of a repository at its issue list's top, in the
// order pinned; anyone who can read subscribes to an issue's news
// (public follow state, like repo.watch), and maintainers may subscribe
// or unsubscribe others, as in Gitea.

// MaxPinned is how many issues a repository may pin (Gitea's default).
const MaxPinned = 3

// Pins is a repository's pinned issues, in pin order.
type Pins struct {
	Repo    uint64   `json:"repo"`
	Numbers []uint64 `json:"numbers"`
}

func pinsKey(repo uint64) []byte { return key([]byte("pins"), u64(repo)) }

// IssuePin is the payload of issue.pin and issue.unpin.
type IssuePin struct {
	Repo   uint64 `json:"repo"`
	Number uint64 `json:"number"`
}

func issuePin(s *session, payload []byte, on bool) error {
	var p IssuePin
	if err := decode(payload, &p); err != nil {
		return err
	}
	r, _, err := s.access(p.Repo, PermWrite, "pinning issues")
	if err != nil {
		return err
	}
	if _, err := s.issue(r.ID, p.Number); err != nil {
		return err
	}
	pins := Pins{Repo: r.ID, Numbers: []uint64{}}
	if _, err := s.getJSON(pinsKey(r.ID), &pins); err != nil {
		return err
	}
	at := slices.Index(pins.Numbers, p.Number)
	switch {
	case on && at >= 0:
		return conflict("#%d is already pinned", p.Number)
	case on && len(pins.Numbers) >= MaxPinned:
		return conflict("%s already pins %d issues, the most it may", r.Name, MaxPinned)
	case on:
		pins.Numbers = append(pins.Numbers, p.Number)
	case at < 0:
		return notFound("#%d is not pinned", p.Number)
	default:
		pins.Numbers = slices.Delete(pins.Numbers, at, at+1)
	}
	if err := s.putJSON(pinsKey(r.ID), pins); err != nil {
		return err
	}
	s.change.Pins = &pins
	return nil
}

// IssueSubscribe is the payload of issue.subscribe and issue.unsubscribe;
// User is the actor when zero.
type IssueSubscribe struct {
	Repo   uint64         `json:"repo"`
	Number uint64         `json:"number"`
	User   common.Address `json:"user,omitzero"`
}

// Subscription is a user's subscription to an issue, set or removed.
type Subscription struct {
	Repo   uint64         `json:"repo"`
	Number uint64         `json:"number"`
	User   common.Address `json:"user"`
	On     bool           `json:"on"`
}

func subscriptionKey(repo, number uint64, user common.Address) []byte {
	return key([]byte("issuesub"), u64(repo), u64(number), user.Bytes())
}

// issueSubscribe sets a subscription; setting the one there is is no
// error (Gitea answers it with 200 rather than 201).
func issueSubscribe(s *session, payload []byte, on bool) error {
	var p IssueSubscribe
	if err := decode(payload, &p); err != nil {
		return err
	}
	r, perm, err := s.access(p.Repo, PermRead, "subscribing")
	if err != nil {
		return err
	}
	if p.User == (common.Address{}) {
		p.User = s.actor
	}
	if p.User != s.actor && perm < PermMaintain {
		return forbidden("only a maintainer may subscribe or unsubscribe someone else")
	}
	if p.User != s.actor {
		if up, err := s.permission(r, p.User); err != nil {
			return err
		} else if up < PermRead {
			return invalid("user", "%s cannot read %s", p.User.Hex(), r.Name)
		}
	}
	if _, err := s.issue(r.ID, p.Number); err != nil {
		return err
	}
	val := none
	if on {
		val = []byte{1}
	}
	if err := s.kv.Set(subscriptionKey(r.ID, p.Number, p.User), val); err != nil {
		return err
	}
	s.change.Subscription = &Subscription{Repo: r.ID, Number: p.Number, User: p.User, On: on}
	return nil
}
