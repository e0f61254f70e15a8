package forge

import (
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/tx"
)

// IssueCreate is the payload of issue.create. Labels (ids) and assignees
// need write permission; anyone who can read the repository may open an
// issue.
type IssueCreate struct {
	Repo      uint64           `json:"repo"`
	Title     string           `json:"title"`
	Body      string           `json:"body" text:"body"`
	Labels    []uint64         `json:"labels"`
	Assignees []common.Address `json:"assignees"`
	// Milestone, when set, files the issue under a milestone (writers).
	Milestone uint64 `json:"milestone,omitempty"`
}

func issueCreate(s *session, payload []byte) error {
	var p IssueCreate
	if err := decode(payload, &p); err != nil {
		return err
	}
	r, perm, err := s.access(p.Repo, PermRead, "opening an issue")
	if err != nil {
		return err
	}
	is := &Issue{Repo: r.ID, Author: s.actor, Title: p.Title, Body: p.Body, Labels: p.Labels, Assignees: p.Assignees, Milestone: p.Milestone}
	if err := s.openIssue(r, perm, is); err != nil {
		return err
	}
	return s.saveRepo(r)
}

// openIssue checks a new issue or pull request conversation, numbers it
// and saves it; the caller saves r with its counters moved.
func (s *session) openIssue(r *Repo, perm Perm, is *Issue) error {
	if err := validateTitle(is.Title); err != nil {
		return err
	}
	if err := validateText("body", is.Body, MaxBody); err != nil {
		return err
	}
	if (len(is.Labels) > 0 || len(is.Assignees) > 0 || is.Milestone != 0) && perm < PermWrite {
		return forbidden("setting labels, assignees or a milestone needs write permission on %s; you have %s", r.Name, perm)
	}
	if err := s.checkIssueMilestone(r, is.Milestone); err != nil {
		return err
	}
	labels, err := s.checkLabels(r, is.Labels)
	if err != nil {
		return err
	}
	is.Labels = labels
	if err := s.checkAssignees(r, is.Assignees); err != nil {
		return err
	}
	if is.Labels == nil {
		is.Labels = []uint64{}
	}
	if is.Assignees == nil {
		is.Assignees = []common.Address{}
	}
	r.LastNumber++
	is.Number, is.State, is.CreatedHeight = r.LastNumber, StateOpen, s.env.Height
	if is.IsPull {
		r.OpenPulls++
	} else {
		r.OpenIssues++
	}
	return s.saveIssue(is)
}

// checkLabels checks an issue's label list and returns it as the issue
// keeps it: of exclusive labels sharing a scope, the last listed.
func (s *session) checkLabels(r *Repo, ids []uint64) ([]uint64, error) {
	if len(ids) > MaxIssueLabels {
		return nil, invalid("labels", "may hold at most %d labels", MaxIssueLabels)
	}
	if id, dup := firstDuplicate(ids); dup {
		return nil, invalid("labels", "lists label %d twice", id)
	}
	labels := make([]Label, 0, len(ids))
	for _, id := range ids {
		var l Label
		ok, err := s.getJSON(labelKey(id), &l)
		if err != nil {
			return nil, err
		}
		if !ok || l.Repo != r.ID {
			return nil, notFound("%s has no label %d", r.Name, id)
		}
		labels = append(labels, l)
	}
	return exclusiveLabels(ids, labels), nil
}

// checkAssignees: each assignee must be able to write to the repository,
// as in Gitea.
func (s *session) checkAssignees(r *Repo, users []common.Address) error {
	if len(users) > MaxAssignees {
		return invalid("assignees", "may hold at most %d people", MaxAssignees)
	}
	if u, dup := firstDuplicate(users); dup {
		return invalid("assignees", "lists %s twice", u.Hex())
	}
	for _, u := range users {
		p, err := s.permission(r, u)
		if err != nil {
			return err
		}
		if p < PermWrite {
			return invalid("assignees", "%s cannot be assigned: assignees need write permission on %s", u.Hex(), r.Name)
		}
	}
	return nil
}

// IssueEdit is the payload of issue.edit, for issues and pull requests
// alike; absent fields stay as they are. The author may change the title
// and body; writers may change anything.
type IssueEdit struct {
	Repo      uint64            `json:"repo"`
	Number    uint64            `json:"number"`
	Title     *string           `json:"title"`
	Body      *string           `json:"body" text:"body"`
	Labels    *[]uint64         `json:"labels"`
	Assignees *[]common.Address `json:"assignees"`
	// Milestone, when present, files it under a milestone; 0 takes it
	// out of its milestone. Writers only.
	Milestone *uint64 `json:"milestone,omitempty"`
}

func issueEdit(s *session, payload []byte) error {
	var p IssueEdit
	if err := decode(payload, &p); err != nil {
		return err
	}
	r, perm, err := s.access(p.Repo, PermRead, "editing an issue")
	if err != nil {
		return err
	}
	is, err := s.issue(r.ID, p.Number)
	if err != nil {
		return err
	}
	if perm < PermWrite && (is.Author != s.actor || p.Labels != nil || p.Assignees != nil || p.Milestone != nil) {
		return forbidden("only the author or someone with write permission may edit #%d, and only writers set labels, assignees and milestones", is.Number)
	}
	if p.Title != nil {
		if err := validateTitle(*p.Title); err != nil {
			return err
		}
		is.Title = *p.Title
	}
	if p.Body != nil {
		if err := validateText("body", *p.Body, MaxBody); err != nil {
			return err
		}
		is.Body = *p.Body
	}
	if p.Labels != nil {
		labels, err := s.checkLabels(r, *p.Labels)
		if err != nil {
			return err
		}
		is.Labels = append([]uint64{}, labels...)
	}
	if p.Assignees != nil {
		if err := s.checkAssignees(r, *p.Assignees); err != nil {
			return err
		}
		is.Assignees = append([]common.Address{}, *p.Assignees...)
	}
	if p.Milestone != nil {
		if err := s.checkIssueMilestone(r, *p.Milestone); err != nil {
			return err
		}
		is.Milestone = *p.Milestone
	}
	return s.saveIssue(is)
}

// IssueState is the payload of issue.close, issue.reopen, pr.close and
// pr.reopen. Reason applies to closing an issue: completed (the default)
// or not_planned.
type IssueState struct {
	Repo   uint64 `json:"repo"`
	Number uint64 `json:"number"`
	Reason string `json:"reason"`
}

// issueSetState closes or reopens. The author may close and reopen their
// own; maintainers any. pullOnly is set for pr.close and pr.reopen, which
// refuse plain issues; issue.close and issue.reopen take both, as Gitea's
// issue API does.
func issueSetState(s *session, payload []byte, pullOnly bool, state string) error {
	var p IssueState
	if err := decode(payload, &p); err != nil {
		return err
	}
	r, perm, err := s.access(p.Repo, PermRead, "closing or reopening")
	if err != nil {
		return err
	}
	is, err := s.issue(r.ID, p.Number)
	if err != nil {
		return err
	}
	if pullOnly && !is.IsPull {
		return notFound("%s has no pull request #%d (it is an issue)", r.Name, is.Number)
	}
	if perm < PermMaintain && is.Author != s.actor {
		return forbidden("only the author or a maintainer may close or reopen #%d", is.Number)
	}
	reason := ""
	if state == StateClosed && !is.IsPull {
		reason = p.Reason
		if reason == "" {
			reason = ReasonCompleted
		}
		if reason != ReasonCompleted && reason != ReasonNotPlanned {
			return invalid("reason", "must be completed or not_planned")
		}
	} else if p.Reason != "" {
		return invalid("reason", "applies only to closing an issue")
	}
	if is.State == state {
		return conflict("#%d is already %s", is.Number, state)
	}
	if is.IsPull {
		pr, err := s.pull(r.ID, is.Number)
		if err != nil {
			return err
		}
		if pr.Merged {
			return conflict("pull request #%d is merged; it cannot be closed or reopened", is.Number)
		}
		if err := s.setOpen(pr, state == StateOpen); err != nil {
			return err
		}
	}
	s.moveOpenCount(r, is, state)
	is.State, is.StateReason = state, reason
	if state == StateClosed {
		is.ClosedHeight = s.env.Height
	} else {
		is.ClosedHeight = 0
	}
	if reason == ReasonCompleted {
		s.issueClosedAsCompleted(r, is, s.actor)
	}
	if err := s.saveIssue(is); err != nil {
		return err
	}
	return s.saveRepo(r)
}

// moveOpenCount moves r's open issue or pull request count for is going
// to state.
func (s *session) moveOpenCount(r *Repo, is *Issue, state string) {
	counter := &r.OpenIssues
	if is.IsPull {
		counter = &r.OpenPulls
	}
	switch {
	case state == StateClosed && *counter > 0:
		*counter--
	case state == StateOpen:
		*counter++
	}
}

// IssueComment is the payload of issue.comment, on an issue or a pull
// request.
type IssueComment struct {
	Repo   uint64 `json:"repo"`
	Number uint64 `json:"number"`
	Body   string `json:"body" text:"body"`
}

func issueComment(s *session, payload []byte) error {
	var p IssueComment
	if err := decode(payload, &p); err != nil {
		return err
	}
	r, _, err := s.access(p.Repo, PermRead, "commenting")
	if err != nil {
		return err
	}
	is, err := s.issue(r.ID, p.Number)
	if err != nil {
		return err
	}
	if strings.TrimSpace(p.Body) == "" {
		return invalid("body", "must not be empty")
	}
	if err := validateText("body", p.Body, MaxBody); err != nil {
		return err
	}
	id, err := s.nextID("comment")
	if err != nil {
		return err
	}
	is.Comments++
	// The comment's place and author, so it can be edited, deleted and
	// reacted to.
	if err := s.putJSON(commentKey(id), commentRef{Repo: r.ID, Number: is.Number, Author: s.actor}); err != nil {
		return err
	}
	s.change.Comment = &Comment{ID: id, Repo: r.ID, Number: is.Number, Author: s.actor, Body: p.Body}
	return s.saveIssue(is)
}

// LabelCreate is the payload of label.create.
type LabelCreate struct {
	Repo        uint64 `json:"repo"`
	Name        string `json:"name"`
	Color       string `json:"color"`
	Description string `json:"description"`
	Exclusive   bool   `json:"exclusive,omitempty"`
}

func labelCreate(s *session, payload []byte) error {
	var p LabelCreate
	if err := decode(payload, &p); err != nil {
		return err
	}
	r, _, err := s.access(p.Repo, PermMaintain, "managing labels")
	if err != nil {
		return err
	}
	if strings.TrimSpace(p.Name) == "" || len(p.Name) > MaxLabelName {
		return invalid("name", "must be 1 to %d bytes", MaxLabelName)
	}
	if err := validateText("name", p.Name, MaxLabelName); err != nil {
		return err
	}
	if err := validateColor(p.Color); err != nil {
		return err
	}
	if err := validateText("description", p.Description, MaxLabelDesc); err != nil {
		return err
	}
	nameKey := labelNameKey(r.ID, strings.ToLower(p.Name))
	if existing, err := s.getID(nameKey); err != nil {
		return err
	} else if existing != 0 {
		return tx.NewError(tx.CodeNameTaken, "%s already has a label named %q", r.Name, p.Name)
	}
	id, err := s.nextID("label")
	if err != nil {
		return err
	}
	l := &Label{ID: id, Repo: r.ID, Name: p.Name, Color: strings.ToLower(p.Color), Description: p.Description, Exclusive: p.Exclusive}
	if err := s.putJSON(labelKey(id), l); err != nil {
		return err
	}
	if err := s.kv.Set(nameKey, u64(id)); err != nil {
		return err
	}
	s.change.Label = l
	return nil
}

// LabelDelete is the payload of label.delete. Issues keep no dangling
// label: the projection drops it from them, and an edit's label list may
// no longer name it.
type LabelDelete struct {
	Repo  uint64 `json:"repo"`
	Label uint64 `json:"label"`
}

func labelDelete(s *session, payload []byte) error {
	var p LabelDelete
	if err := decode(payload, &p); err != nil {
		return err
	}
	r, _, err := s.access(p.Repo, PermMaintain, "managing labels")
	if err != nil {
		return err
	}
	var l Label
	ok, err := s.getJSON(labelKey(p.Label), &l)
	if err != nil {
		return err
	}
	if !ok || l.Repo != r.ID {
		return notFound("%s has no label %d", r.Name, p.Label)
	}
	if err := s.kv.Set(labelKey(l.ID), none); err != nil {
		return err
	}
	if err := s.kv.Set(labelNameKey(r.ID, strings.ToLower(l.Name)), none); err != nil {
		return err
	}
	s.change.DeletedLabel = &l
	return nil
}
