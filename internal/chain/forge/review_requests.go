package forge

import (
	"slices"

	"github.com/ethereum/go-ethereum/common"
)

// Review requests and dismissals, as Gitea's: the author of a pull request
// or someone who may write to its repository asks people who may read it
// for a review (pr.review.request, pr.review.unrequest); a maintainer
// dismisses a review (pr.review.dismiss), which takes an approval out of
// the count branch protection needs, and undoes it (pr.review.undismiss).
// Both are kept on the pull request's record, in lists empty until used,
// so pull requests that never use them keep their old encoding.
//
// Reviews are not kept in state (their event is their record), so a
// dismissal names the review's author as the service read it from the
// index; the module holds the rest: only that author's current verdict
// is taken out of Approvers, and a later verdict of theirs ends the
// dismissal.

// Limits of review requests.
const MaxReviewRequests = 50

// ReviewRequest is a review asked of Reviewer; ID is taken from the
// review sequence, as Gitea's request is a review of type "request".
type ReviewRequest struct {
	ID       uint64         `json:"id"`
	Reviewer common.Address `json:"reviewer"`
}

// DismissedReview is a dismissed review of Reviewer; Approved when it took
// an approval away, which undismissing gives back.
type DismissedReview struct {
	ID       uint64         `json:"id"`
	Reviewer common.Address `json:"reviewer"`
	Approved bool           `json:"approved,omitempty"`
}

// Dismissal is a review dismissed (Dismissed) or undismissed, as the
// event of pr.review.dismiss and pr.review.undismiss tells it.
type Dismissal struct {
	Repo      uint64 `json:"repo"`
	Number    uint64 `json:"number"`
	Review    uint64 `json:"review"`
	Dismissed bool   `json:"dismissed"`
	Message   string `json:"message,omitempty"`
}

// PullReviewRequest is the payload of pr.review.request and
// pr.review.unrequest.
type PullReviewRequest struct {
	Repo      uint64           `json:"repo"`
	Number    uint64           `json:"number"`
	Reviewers []common.Address `json:"reviewers"`
}

// PullReviewUnrequest is the payload of pr.review.unrequest.
type PullReviewUnrequest PullReviewRequest

// PullReviewDismiss is the payload of pr.review.dismiss.
type PullReviewDismiss struct {
	Repo     uint64         `json:"repo"`
	Number   uint64         `json:"number"`
	Review   uint64         `json:"review"`
	Reviewer common.Address `json:"reviewer"`
	Message  string         `json:"message" text:"body"`
}

// PullReviewUndismiss is the payload of pr.review.undismiss.
type PullReviewUndismiss struct {
	Repo   uint64 `json:"repo"`
	Number uint64 `json:"number"`
	Review uint64 `json:"review"`
}

func (PullReviewRequest) ActionName() string   { return "pr.review.request" }
func (PullReviewUnrequest) ActionName() string { return "pr.review.unrequest" }
func (PullReviewDismiss) ActionName() string   { return "pr.review.dismiss" }
func (PullReviewUndismiss) ActionName() string { return "pr.review.undismiss" }

// openPullFor loads an open pull request for a change of its reviews by
// the actor, who needs need, or to be its author when authorMay.
func (s *session) openPullFor(repo, number uint64, need Perm, authorMay bool, what string) (*Repo, *Issue, *Pull, error) {
	base, perm, err := s.access(repo, PermRead, what)
	if err != nil {
		return nil, nil, nil, err
	}
	is, pr, err := s.pullRequest(base, number)
	if err != nil {
		return nil, nil, nil, err
	}
	if perm < need && !(authorMay && is.Author == s.actor) {
		return nil, nil, nil, forbidden("%s needs %s permission on %s; you have %s", what, need, base.Name, perm)
	}
	if pr.Merged || is.State == StateClosed {
		return nil, nil, nil, conflict("pull request #%d is %s", pr.Number, mergedOrClosed(pr))
	}
	return base, is, pr, nil
}

func checkReviewers(reviewers []common.Address) error {
	if len(reviewers) == 0 || len(reviewers) > MaxReviewRequests {
		return invalid("reviewers", "must list 1 to %d users", MaxReviewRequests)
	}
	if slices.Contains(reviewers, common.Address{}) {
		return invalid("reviewers", "holds the zero address")
	}
	if a, dup := firstDuplicate(reviewers); dup {
		return invalid("reviewers", "lists %s twice", a.Hex())
	}
	return nil
}

func pullReviewRequest(s *session, payload []byte) error {
	var p PullReviewRequest
	if err := decode(payload, &p); err != nil {
		return err
	}
	base, is, pr, err := s.openPullFor(p.Repo, p.Number, PermWrite, true, "requesting a review")
	if err != nil {
		return err
	}
	if err := checkReviewers(p.Reviewers); err != nil {
		return err
	}
	for _, a := range p.Reviewers {
		if a == is.Author {
			return invalid("reviewers", "%s wrote the pull request and cannot review it", a.Hex())
		}
		if perm, err := s.permission(base, a); err != nil {
			return err
		} else if perm < PermRead {
			return invalid("reviewers", "%s cannot read %s", a.Hex(), base.Name)
		}
		if slices.ContainsFunc(pr.Requested, func(r ReviewRequest) bool { return r.Reviewer == a }) {
			continue // asked already: as in Gitea, asking again changes nothing
		}
		if len(pr.Requested) >= MaxReviewRequests {
			return invalid("reviewers", "a pull request may have at most %d open review requests", MaxReviewRequests)
		}
		id, err := s.nextID("review")
		if err != nil {
			return err
		}
		pr.Requested = append(pr.Requested, ReviewRequest{ID: id, Reviewer: a})
	}
	return s.savePull(pr)
}

func pullReviewUnrequest(s *session, payload []byte) error {
	var p PullReviewUnrequest
	if err := decode(payload, &p); err != nil {
		return err
	}
	_, _, pr, err := s.openPullFor(p.Repo, p.Number, PermWrite, true, "removing a review request")
	if err != nil {
		return err
	}
	if err := checkReviewers(p.Reviewers); err != nil {
		return err
	}
	pr.Requested = slices.DeleteFunc(pr.Requested, func(r ReviewRequest) bool { return slices.Contains(p.Reviewers, r.Reviewer) })
	if len(pr.Requested) == 0 {
		pr.Requested = nil
	}
	return s.savePull(pr)
}

func pullReviewDismiss(s *session, payload []byte) error {
	var p PullReviewDismiss
	if err := decode(payload, &p); err != nil {
		return err
	}
	_, _, pr, err := s.openPullFor(p.Repo, p.Number, PermMaintain, false, "dismissing a review")
	if err != nil {
		return err
	}
	if p.Review == 0 {
		return invalid("review", "must name a review")
	}
	if p.Reviewer == (common.Address{}) {
		return invalid("reviewer", "must name the review's author")
	}
	if err := validateText("message", p.Message, MaxBody); err != nil {
		return err
	}
	if slices.ContainsFunc(pr.Dismissed, func(d DismissedReview) bool { return d.ID == p.Review }) {
		return conflict("review %d is already dismissed", p.Review)
	}
	d := DismissedReview{ID: p.Review, Reviewer: p.Reviewer, Approved: slices.Contains(pr.Approvers, p.Reviewer)}
	pr.Approvers = slices.DeleteFunc(pr.Approvers, func(a common.Address) bool { return a == p.Reviewer })
	if len(pr.Approvers) == 0 {
		pr.Approvers = nil
	}
	pr.Dismissed = append(pr.Dismissed, d)
	s.change.Dismissal = &Dismissal{Repo: pr.Repo, Number: pr.Number, Review: p.Review, Dismissed: true, Message: p.Message}
	return s.savePull(pr)
}

func pullReviewUndismiss(s *session, payload []byte) error {
	var p PullReviewUndismiss
	if err := decode(payload, &p); err != nil {
		return err
	}
	_, _, pr, err := s.openPullFor(p.Repo, p.Number, PermMaintain, false, "undismissing a review")
	if err != nil {
		return err
	}
	i := slices.IndexFunc(pr.Dismissed, func(d DismissedReview) bool { return d.ID == p.Review })
	if i < 0 {
		return notFound("review %d of pull request #%d is not dismissed (or a later review of its author replaced it)", p.Review, pr.Number)
	}
	d := pr.Dismissed[i]
	pr.Dismissed = slices.Delete(pr.Dismissed, i, i+1)
	if len(pr.Dismissed) == 0 {
		pr.Dismissed = nil
	}
	if d.Approved && !slices.Contains(pr.Approvers, d.Reviewer) {
		pr.Approvers = append(pr.Approvers, d.Reviewer)
	}
	s.change.Dismissal = &Dismissal{Repo: pr.Repo, Number: pr.Number, Review: p.Review}
	return s.savePull(pr)
}

// reviewed ends what a new review of the actor replaces on pr: their
// review request and, for a verdict, their dismissed reviews. It reports
// whether pr changed; on pull requests that use neither it never does.
func (s *session) reviewed(pr *Pull, verdict bool) bool {
	n, m := len(pr.Requested), len(pr.Dismissed)
	pr.Requested = slices.DeleteFunc(pr.Requested, func(r ReviewRequest) bool { return r.Reviewer == s.actor })
	if verdict {
		pr.Dismissed = slices.DeleteFunc(pr.Dismissed, func(d DismissedReview) bool { return d.Reviewer == s.actor })
	}
	if len(pr.Requested) == 0 {
		pr.Requested = nil
	}
	if len(pr.Dismissed) == 0 {
		pr.Dismissed = nil
	}
	return len(pr.Requested) != n || len(pr.Dismissed) != m
}
