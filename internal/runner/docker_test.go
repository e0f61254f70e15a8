// A job of a docker label runs in a container of its image. Built only
// with the docker tag, by make test-docker, which starts a Docker daemon
// and imports the image: make test has none to give it.

//go:build docker && !race

package runner

import (
	"os"
	"slices"
	"strings"
	"testing"

	runnerv1 "gitea.dev/actions-proto-go/runner/v1"
)

// dockerWorkflow reads a file only the image holds, and passes a step's
// output on, inside the job's container.
const dockerWorkflow = `name: ci
on: push
defaults:
  run:
    shell: sh
jobs:
  build:
    runs-on: box
    steps:
      - run: echo "inside $(cat /etc/dforge-image)"; test -f /.dockerenv && echo "in a container"
      - id: o
        run: echo "word=boxed" >> "$GITHUB_OUTPUT"
      - run: echo "then ${{ steps.o.outputs.word }} in $(pwd)"
`

// TestAJobRunsInItsImagesContainer runs a job on a runner whose label maps
// to docker://IMAGE (DFORGE_TEST_IMAGE, a Docker daemon at DOCKER_HOST): the
// steps run in the image's container, in the workspace act_runner names,
// and the container is removed afterwards.
func TestAJobRunsInItsImagesContainer(t *testing.T) {
	image := os.Getenv("DFORGE_TEST_IMAGE")
	if image == "" || os.Getenv("DOCKER_HOST") == "" {
		t.Fatal("DFORGE_TEST_IMAGE and DOCKER_HOST name no image or daemon: run make test-docker")
	}
	want, err := os.ReadFile("/etc/dforge-image")
	if err == nil {
		t.Fatalf("the host holds /etc/dforge-image (%q): the test could not tell host from container", want)
	}
	f, url := newFakeForge(t)
	f.enqueue(task(t, 1, dockerWorkflow, nil, nil))
	runTasksOn(t, f, url, []string{"box:docker://" + image}, 1)

	r := f.report(1)
	log := strings.Join(r.lines, "\n")
	ok := runnerv1.Result_RESULT_SUCCESS
	if r.state.GetResult() != ok || !slices.Equal(r.results(), []runnerv1.Result{ok, ok, ok}) {
		t.Fatalf("task: %v, steps %v; log:\n%s", r.state.GetResult(), r.results(), log)
	}
	if l := r.stepLines(0); !hasLine(l, "inside dforge-ci image") || !hasLine(l, "in a container") {
		t.Errorf("the first step shows %q: it did not run in the image's container", l)
	}
	if l := r.stepLines(2); !hasLine(l, "then boxed in /workspace/") {
		t.Errorf("the third step shows %q", l)
	}
}
