package runner

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

// RegistrationFile is where `dforge runner register` keeps the registration,
// in the working directory, as act_runner does.
const RegistrationFile = ".runner"

const registrationWarning = "This file is written by `dforge runner register`. Do not edit it unless you know what you are doing. Removing it makes the runner register again as a new runner."

// Registration is the runner's identity at a forge, in act_runner's `.runner`
// format. Token is the runner's secret: the file is written readable by its
// owner only.
type Registration struct {
	Warning string   `json:"WARNING"`
	ID      int64    `json:"id"`
	UUID    string   `json:"uuid"`
	Name    string   `json:"name"`
	Token   string   `json:"token"`
	Address string   `json:"address"`
	Labels  []string `json:"labels"`
}

// Save writes the registration to path.
func (r *Registration) Save(path string) error {
	r.Warning = registrationWarning
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("encode registration: %w", err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("write registration: %w", err)
	}
	return nil
}

// LoadRegistration reads a registration saved by Save (or by act_runner).
func LoadRegistration(path string) (*Registration, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("no registration at %s: run `dforge runner register` first", path)
	} else if err != nil {
		return nil, fmt.Errorf("read registration: %w", err)
	}
	var r Registration
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("decode registration %s: %w", path, err)
	}
	if r.UUID == "" || r.Token == "" || r.Address == "" {
		return nil, fmt.Errorf("registration %s lacks its uuid, token or address", path)
	}
	return &r, nil
}
