package actions

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/dforge/dforge/internal/usererr"
)

// Variable is a configuration variable (`${{ vars.NAME }}`): plain text,
// given to every job of its scope, forks' pull requests' too.
type Variable struct {
	Scope            Scope
	Name, Data       string
	Description      string
	Created, Updated int64 // Unix ms
}

// checkVariable is a variable's name as stored, checked as Gitea checks
// it: a secret's rules, and not CI, which runners set themselves.
func checkVariable(field, name string) (string, error) {
	name, err := checkName(field, name)
	if err != nil {
		return "", err
	}
	if name == "CI" {
		return "", usererr.BadFieldf(field, "%s may not be CI", field)
	}
	return name, nil
}

// checkData is a value as stored (a browser's CRLF made LF, as Gitea
// keeps it), or a 422.
func checkData(field, data string) (string, error) {
	data = strings.ReplaceAll(data, "\r\n", "\n")
	return data, checkValue(field, data, maxValueLen)
}

// Variables lists sc's variables by name, with their total.
func (s *Service) Variables(ctx context.Context, sc Scope, limit, offset int) ([]Variable, int64, error) {
	var total int64
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM actions_variables WHERE scope_owner = $1 AND scope_repo = $2`,
		sc.owner(), int64(sc.Repo)).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count variables: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT name, data, description, created_ms, updated_ms FROM actions_variables
		WHERE scope_owner = $1 AND scope_repo = $2 ORDER BY name LIMIT $3 OFFSET $4`, sc.owner(), int64(sc.Repo), limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("list variables: %w", err)
	}
	defer rows.Close()
	var out []Variable
	for rows.Next() {
		v := Variable{Scope: sc}
		if err := rows.Scan(&v.Name, &v.Data, &v.Description, &v.Created, &v.Updated); err != nil {
			return nil, 0, fmt.Errorf("read a variable: %w", err)
		}
		out = append(out, v)
	}
	return out, total, rows.Err()
}

// VariableByName is sc's variable name (any case).
func (s *Service) VariableByName(ctx context.Context, sc Scope, name string) (Variable, error) {
	v := Variable{Scope: sc}
	err := s.db.QueryRowContext(ctx, `SELECT name, data, description, created_ms, updated_ms FROM actions_variables
		WHERE scope_owner = $1 AND scope_repo = $2 AND name = $3`, sc.owner(), int64(sc.Repo), strings.ToUpper(name)).
		Scan(&v.Name, &v.Data, &v.Description, &v.Created, &v.Updated)
	if errors.Is(err, sql.ErrNoRows) {
		return Variable{}, usererr.Missingf("there is no variable %s", name)
	}
	if err != nil {
		return Variable{}, fmt.Errorf("read variable %s: %w", name, err)
	}
	return v, nil
}

// CreateVariable adds sc's variable name; a 409 when it exists.
func (s *Service) CreateVariable(ctx context.Context, sc Scope, name, data, description string) error {
	if err := checkScope(sc); err != nil {
		return err
	}
	name, err := checkVariable("name", name)
	if err != nil {
		return err
	}
	if data, err = checkData("value", data); err != nil {
		return err
	}
	if err := checkValue("description", description, maxDescriptionLen); err != nil {
		return err
	}
	if err := s.roomFor(ctx, "actions_variables", sc); err != nil {
		return err
	}
	now := s.ms()
	res, err := s.db.ExecContext(ctx, `INSERT INTO actions_variables (scope_owner, scope_repo, name, data, description, created_ms, updated_ms)
		VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT (scope_owner, scope_repo, name) DO NOTHING`,
		sc.owner(), int64(sc.Repo), name, data, description, now)
	if err != nil {
		return fmt.Errorf("insert variable %s: %w", name, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return usererr.Clashf(usererr.CodeConflict, "variable %s already exists", name)
	}
	return nil
}

// VariableUpdate is a change to a variable: a new name ("" keeps it), its
// value, and its description (nil keeps it).
type VariableUpdate struct {
	Name        string
	Data        string
	Description *string
}

// UpdateVariable changes sc's variable name; a 404 when there is none, a
// 409 when the new name is another's.
func (s *Service) UpdateVariable(ctx context.Context, sc Scope, name string, u VariableUpdate) error {
	old, err := s.VariableByName(ctx, sc, name)
	if err != nil {
		return err
	}
	next := old.Name
	if u.Name != "" {
		if next, err = checkVariable("name", u.Name); err != nil {
			return err
		}
	}
	data, err := checkData("value", u.Data)
	if err != nil {
		return err
	}
	desc := old.Description
	if u.Description != nil {
		desc = *u.Description
	}
	if err := checkValue("description", desc, maxDescriptionLen); err != nil {
		return err
	}
	if next != old.Name {
		if _, err := s.VariableByName(ctx, sc, next); err == nil {
			return usererr.Clashf(usererr.CodeConflict, "variable %s already exists", next)
		}
	}
	res, err := s.db.ExecContext(ctx, `UPDATE actions_variables SET name = $1, data = $2, description = $3, updated_ms = $4
		WHERE scope_owner = $5 AND scope_repo = $6 AND name = $7`, next, data, desc, s.ms(), sc.owner(), int64(sc.Repo), old.Name)
	if err != nil {
		return fmt.Errorf("update variable %s: %w", old.Name, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return usererr.Missingf("there is no variable %s", name)
	}
	return nil
}

// DeleteVariable removes sc's variable name.
func (s *Service) DeleteVariable(ctx context.Context, sc Scope, name string) error {
	return s.deleteRow(ctx, "actions_variables", "variable", sc, name)
}

// taskVars are the variables a job of repo gets: its owner's, overridden
// by its own. Forks' pull requests get them too: they are not secret.
func (s *Service) taskVars(ctx context.Context, repo uint64) (map[string]string, error) {
	owner, err := s.ownerScope(ctx, repo)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, sc := range []Scope{owner, {Repo: repo}} { // the repository's last: it wins
		if sc.owner() == "" && sc.Repo == 0 {
			continue
		}
		rows, err := s.db.QueryContext(ctx, `SELECT name, data FROM actions_variables WHERE scope_owner = $1 AND scope_repo = $2`, sc.owner(), int64(sc.Repo))
		if err != nil {
			return nil, fmt.Errorf("read variables: %w", err)
		}
		for rows.Next() {
			var name, data string
			if err := rows.Scan(&name, &data); err != nil {
				rows.Close()
				return nil, fmt.Errorf("read a variable: %w", err)
			}
			out[name] = data
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("read variables: %w", err)
		}
	}
	return out, nil
}
