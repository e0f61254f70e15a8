package runner

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestRegistrationRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), RegistrationFile)
	reg := &Registration{ID: 7, UUID: "u-1", Name: "r1", Token: "tok", Address: "http://127.0.0.1:3000",
		Labels: []string{"self-hosted:host", "ubuntu-latest:docker://node:20"}}
	if err := reg.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := LoadRegistration(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, reg) {
		t.Errorf("loaded %+v, saved %+v", got, reg)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600: the file holds the runner's token", fi.Mode().Perm())
	}
	// act_runner's keys, so either runner reads the other's file.
	var raw map[string]any
	b, _ := os.ReadFile(path)
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"WARNING", "id", "uuid", "name", "token", "address", "labels"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("key %q missing from %s", k, b)
		}
	}
}

func TestLoadRegistrationErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := LoadRegistration(filepath.Join(dir, "none")); err == nil || !strings.Contains(err.Error(), "dforge runner register") {
		t.Errorf("missing file: %v, want a hint to register", err)
	}
	bad := filepath.Join(dir, "bad")
	os.WriteFile(bad, []byte(`{"id": 1, "name": "x"}`), 0o600)
	if _, err := LoadRegistration(bad); err == nil {
		t.Error("a registration without uuid and token loaded")
	}
}
