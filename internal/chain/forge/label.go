package forge

import (
	"strings"

	"github.com/dforge/dforge/internal/chain/tx"
)

// LabelEdit is the payload of label.edit (Gitea's PATCH
// /repos/{owner}/{repo}/labels/{id}): the fields given change, the others
// stay. Issues name labels by id, so a rename reaches them all.
type LabelEdit struct {
	Repo        uint64  `json:"repo"`
	Label       uint64  `json:"label"`
	Name        *string `json:"name,omitempty"`
	Color       *string `json:"color,omitempty"`
	Description *string `json:"description,omitempty"`
	Exclusive   *bool   `json:"exclusive,omitempty"`
}

func (LabelEdit) ActionName() string { return "label.edit" }

func labelEdit(s *session, payload []byte) error {
	var p LabelEdit
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
	oldName := l.Name
	if p.Name != nil {
		if strings.TrimSpace(*p.Name) == "" || len(*p.Name) > MaxLabelName {
			return invalid("name", "must be 1 to %d bytes", MaxLabelName)
		}
		l.Name = *p.Name
	}
	if p.Color != nil {
		if err := validateColor(*p.Color); err != nil {
			return err
		}
		l.Color = strings.ToLower(*p.Color)
	}
	if p.Description != nil {
		if err := validateText("description", *p.Description, MaxLabelDesc); err != nil {
			return err
		}
		l.Description = *p.Description
	}
	if p.Exclusive != nil {
		l.Exclusive = *p.Exclusive
	}
	if err := s.renameLabel(r, &l, oldName); err != nil {
		return err
	}
	if err := s.putJSON(labelKey(l.ID), &l); err != nil {
		return err
	}
	s.change.Label = &l
	return nil
}

// renameLabel moves the label's name key when its name changed, refusing
// a name another label of the repository has (names compare without case).
func (s *session) renameLabel(r *Repo, l *Label, oldName string) error {
	oldKey, newKey := labelNameKey(r.ID, strings.ToLower(oldName)), labelNameKey(r.ID, strings.ToLower(l.Name))
	if string(oldKey) == string(newKey) {
		return nil
	}
	if existing, err := s.getID(newKey); err != nil {
		return err
	} else if existing != 0 {
		return tx.NewError(tx.CodeNameTaken, "%s already has a label named %q", r.Name, l.Name)
	}
	if err := s.kv.Set(oldKey, none); err != nil {
		return err
	}
	return s.kv.Set(newKey, u64(l.ID))
}

// LabelScope is an exclusive label's scope, as Gitea has it: the name up
// to its last "/" ("kind" for "kind/bug"); "" for none.
func LabelScope(name string) string {
	if i := strings.LastIndex(name, "/"); i > 0 {
		return name[:i]
	}
	return ""
}

// exclusiveLabels drops, of exclusive labels that share a scope, all but
// the last listed: adding "kind/feature" to an issue with "kind/bug"
// replaces it. A list without such a clash comes back as it was.
func exclusiveLabels(ids []uint64, labels []Label) []uint64 {
	drop := map[int]bool{}
	for i, l := range labels {
		scope := LabelScope(l.Name)
		if !l.Exclusive || scope == "" {
			continue
		}
		for j := i + 1; j < len(labels); j++ {
			if labels[j].Exclusive && LabelScope(labels[j].Name) == scope {
				drop[i] = true
				break
			}
		}
	}
	if len(drop) == 0 {
		return ids
	}
	out := make([]uint64, 0, len(ids)-len(drop))
	for i, id := range ids {
		if !drop[i] {
			out = append(out, id)
		}
	}
	return out
}
