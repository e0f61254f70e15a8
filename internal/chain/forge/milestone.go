package forge

import (
	"strings"
)

// Milestones: a repository's named goals that issues and pull requests are
// filed under (Gitea's milestones). Writers manage them and set an issue's
// milestone (issue.edit's milestone, issue.create's). The due date is a
// Unix time the client gives: the state machine has no clock. The open and
// closed counts a progress bar shows are counted by the projection, from
// the issues' milestone, so no action but these has to keep them.

// MaxMilestoneDesc bounds a milestone's description.
const MaxMilestoneDesc = 4096

// maxDue bounds a due date (Unix seconds): the year 9999, past which no
// client's date type reads it back.
const maxDue = 253402300799

// Milestone is a repository's milestone.
type Milestone struct {
	ID          uint64 `json:"id"`
	Repo        uint64 `json:"repo"`
	Title       string `json:"title"`
	Description string `json:"description"`
	State       string `json:"state"`
	// Due is the due date in Unix seconds; 0 for none.
	Due           uint64 `json:"due,omitempty"`
	ClosedHeight  uint64 `json:"closedHeight,omitempty"`
	CreatedHeight uint64 `json:"createdHeight"`
	UpdatedHeight uint64 `json:"updatedHeight"`
}

func milestoneKey(id uint64) []byte { return key([]byte("milestone"), u64(id)) }

// MilestoneCreate is the payload of milestone.create.
type MilestoneCreate struct {
	Repo        uint64 `json:"repo"`
	Title       string `json:"title"`
	Description string `json:"description" text:"body"`
	Due         uint64 `json:"due"`
	// State is open (the default) or closed.
	State string `json:"state"`
}

func milestoneCreate(s *session, payload []byte) error {
	var p MilestoneCreate
	if err := decode(payload, &p); err != nil {
		return err
	}
	r, _, err := s.access(p.Repo, PermWrite, "managing milestones")
	if err != nil {
		return err
	}
	m := &Milestone{Repo: r.ID, Title: p.Title, Description: p.Description, Due: p.Due, State: p.State, CreatedHeight: s.env.Height}
	if m.State == "" {
		m.State = StateOpen
	}
	if err := s.checkMilestone(m); err != nil {
		return err
	}
	if m.State == StateClosed {
		m.ClosedHeight = s.env.Height
	}
	if m.ID, err = s.nextID("milestone"); err != nil {
		return err
	}
	return s.saveMilestone(m)
}

// checkMilestone holds a milestone's fields to the rules.
func (s *session) checkMilestone(m *Milestone) error {
	if err := validateTitle(m.Title); err != nil {
		return err
	}
	if err := validateText("description", m.Description, MaxMilestoneDesc); err != nil {
		return err
	}
	if m.Due > maxDue {
		return invalid("due", "must be a Unix time before the year 10000")
	}
	if m.State != StateOpen && m.State != StateClosed {
		return invalid("state", "must be open or closed")
	}
	return nil
}

func (s *session) saveMilestone(m *Milestone) error {
	m.UpdatedHeight = s.env.Height
	if err := s.putJSON(milestoneKey(m.ID), m); err != nil {
		return err
	}
	s.change.Milestone = m
	return nil
}

// milestone loads milestone id of r; not found when it is another
// repository's or deleted.
func (s *session) milestone(r *Repo, id uint64) (*Milestone, error) {
	var m Milestone
	ok, err := s.getJSON(milestoneKey(id), &m)
	if err != nil {
		return nil, err
	}
	if !ok || m.Repo != r.ID || id == 0 {
		return nil, notFound("%s has no milestone %d", r.Name, id)
	}
	return &m, nil
}

// MilestoneEdit is the payload of milestone.edit; absent fields stay as
// they are. Due 0 clears the due date.
type MilestoneEdit struct {
	Repo        uint64  `json:"repo"`
	Milestone   uint64  `json:"milestone"`
	Title       *string `json:"title"`
	Description *string `json:"description" text:"body"`
	Due         *uint64 `json:"due"`
	State       *string `json:"state"`
}

func milestoneEdit(s *session, payload []byte) error {
	var p MilestoneEdit
	if err := decode(payload, &p); err != nil {
		return err
	}
	r, _, err := s.access(p.Repo, PermWrite, "managing milestones")
	if err != nil {
		return err
	}
	m, err := s.milestone(r, p.Milestone)
	if err != nil {
		return err
	}
	was := m.State
	if p.Title != nil {
		m.Title = *p.Title
	}
	if p.Description != nil {
		m.Description = *p.Description
	}
	if p.Due != nil {
		m.Due = *p.Due
	}
	if p.State != nil {
		m.State = strings.ToLower(*p.State)
	}
	if err := s.checkMilestone(m); err != nil {
		return err
	}
	switch {
	case m.State == StateClosed && was != StateClosed:
		m.ClosedHeight = s.env.Height
	case m.State == StateOpen:
		m.ClosedHeight = 0
	}
	return s.saveMilestone(m)
}

// MilestoneDelete is the payload of milestone.delete. Its issues keep no
// dangling milestone: the projection clears it from them, and saveIssue
// drops it from an issue's record the next time that changes.
type MilestoneDelete struct {
	Repo      uint64 `json:"repo"`
	Milestone uint64 `json:"milestone"`
}

func milestoneDelete(s *session, payload []byte) error {
	var p MilestoneDelete
	if err := decode(payload, &p); err != nil {
		return err
	}
	r, _, err := s.access(p.Repo, PermWrite, "managing milestones")
	if err != nil {
		return err
	}
	m, err := s.milestone(r, p.Milestone)
	if err != nil {
		return err
	}
	if err := s.kv.Set(milestoneKey(m.ID), none); err != nil {
		return err
	}
	s.change.DeletedMilestone = m
	return nil
}

// checkIssueMilestone: an issue's milestone, when set, is a live milestone
// of its repository.
func (s *session) checkIssueMilestone(r *Repo, id uint64) error {
	if id == 0 {
		return nil
	}
	if _, err := s.milestone(r, id); err != nil {
		return invalid("milestone", "names no milestone of %s: %d", r.Name, id)
	}
	return nil
}

// liveMilestone is id when it names a live milestone of repo, else 0.
func (s *session) liveMilestone(repo, id uint64) (uint64, error) {
	if id == 0 {
		return 0, nil
	}
	var m Milestone
	ok, err := s.getJSON(milestoneKey(id), &m)
	if err != nil || !ok || m.Repo != repo {
		return 0, err
	}
	return id, nil
}
