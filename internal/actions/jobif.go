package actions

import (
	"fmt"
	"strings"

	"github.com/nektos/act/pkg/exprparser"
	"github.com/nektos/act/pkg/jobparser"
	"github.com/nektos/act/pkg/model"
)

// ifAllows says whether a job whose needs have ended runs: its `if:`
// (`success()` when it has none) over the needs' results, as GitHub
// decides it, so `if: always()` or `failure()` runs after a failure.
func ifAllows(payload string, results map[string]string) (ok bool, err error) {
	defer func() { // an expression that crashes the library fails the job
		if v := recover(); v != nil {
			ok, err = false, fmt.Errorf("evaluate if: %v", v)
		}
	}()
	wf, err := model.ReadWorkflow(strings.NewReader(payload))
	if err != nil {
		return false, fmt.Errorf("read the job: %w", err)
	}
	for id, job := range wf.Jobs {
		res := map[string]*jobparser.JobResult{id: {Needs: job.Needs()}}
		for need, r := range results {
			res[need] = &jobparser.JobResult{Result: r}
		}
		expr := strings.TrimSpace(job.If.Value)
		expr = strings.TrimSuffix(strings.TrimPrefix(expr, "${{"), "}}")
		v, err := jobparser.NewInterpeter(id, job, nil, nil, res, nil, nil).Evaluate(expr, exprparser.DefaultStatusCheckSuccess)
		if err != nil {
			return false, fmt.Errorf("evaluate if: %w", err)
		}
		return exprparser.IsTruthy(v), nil
	}
	return false, fmt.Errorf("the job's payload holds no job")
}
