package gitserver

import "testing"

// The exec command git sends over SSH, in the forms clients write it.
func TestParseSSHCommand(t *testing.T) {
	ok := []struct{ command, service, owner, name string }{
		{"git-upload-pack '/alice/hello.git'", uploadPack, "alice", "hello"},
		{"git-upload-pack 'alice/hello.git'", uploadPack, "alice", "hello"},
		{"git-upload-pack '/alice/hello'", uploadPack, "alice", "hello"},
		{"git-receive-pack 'alice/hello'", receivePack, "alice", "hello"},
		{"git upload-pack '/alice/hello.git'", uploadPack, "alice", "hello"},
		{"git-upload-archive '/alice/my.repo.git'", "git-upload-archive", "alice", "my.repo"},
		{"git-upload-pack '~/alice/hello.git'", uploadPack, "alice", "hello"},
		{`git-upload-pack "alice/hello.git"`, uploadPack, "alice", "hello"},
	}
	for _, c := range ok {
		service, owner, name, err := parseCommand(c.command)
		if err != nil || service != c.service || owner != c.owner || name != c.name {
			t.Errorf("%q: %q %q %q %v", c.command, service, owner, name, err)
		}
	}
	for _, bad := range []string{"", "ls", "git-upload-pack", "git-upload-pack '/alice'", "git-upload-pack '/../etc/passwd'",
		"git-upload-pack '/alice/../bob.git'", "git-upload-pack '/alice/he llo.git'", "git-upload-pack '/a/b/c.git'",
		"git-upload-pack '/alice/%2e%2e.git'", "rm -rf /", "git-upload-pack '/alice/..'"} {
		if _, _, _, err := parseCommand(bad); err == nil {
			t.Errorf("%q was taken", bad)
		}
	}
}
