package node_test

import (
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
)

func TestMain(m *testing.M) { forgetest.Main(m) }

// One node, one *gitrepos.Repos: the API (repositories, transfers) and the
// git server (pushes) hold the same one, so the locks that guard a
// transferred repository's directory move and a repository's pushes are
// the same locks on both paths. With two, a transfer through the API
// could move a directory while a push through git moved it too.
func TestTheAPIAndTheGitServerShareOneRepos(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t).Node
	if n.Repos == nil || n.API == nil || n.Git == nil {
		t.Fatalf("the node lacks a service: Repos %v, API %v, Git %v", n.Repos, n.API, n.Git)
	}
	want := reflect.ValueOf(n.Repos).Pointer()
	// The git server keeps it unexported; read the fields as the only way to see
	// which instance they hold.
	hosting := reflect.ValueOf(n.API).Elem().FieldByName("Hosting")
	if !hosting.IsValid() {
		t.Fatal("api.API has no field Hosting any more: update this test to where the API keeps its *gitrepos.Repos")
	}
	if hosting.Pointer() != want {
		t.Errorf("the API holds another *gitrepos.Repos (%#x) than the node (%#x)", hosting.Pointer(), want)
	}
	repos := reflect.ValueOf(n.Git).Elem().FieldByName("repos") // a gitrepos.Seeded in the gitserver.Repos interface
	if !repos.IsValid() || repos.IsNil() {
		t.Fatal("gitserver.Server has no repos field any more: update this test to where it keeps its Repos")
	}
	inner := repos.Elem().FieldByName("Repos")
	if !inner.IsValid() || inner.Pointer() != want {
		t.Errorf("the git server holds %v, not the node's *gitrepos.Repos (%#x)", repos.Elem().Type(), want)
	}
}

// The forge's packages never import the transport or the HTTP layer:
// gitrepos serves the git server through repoaccess's types.
func TestTheForgeDoesNotImportTheLayersAboveIt(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", "github.com/dforge/dforge/internal/forge/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, above := range []string{"internal/gitserver", "internal/api", "internal/web", "internal/node"} {
			if dep == "github.com/dforge/dforge/"+above {
				t.Errorf("internal/forge/... imports %s", above)
			}
		}
	}
}
