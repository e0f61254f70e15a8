package api_test

import (
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"

	"github.com/dforge/dforge/internal/forgetest"
)

// Gitea's own client sets, lists, updates and deletes Actions secrets and
// variables at a repository's, an organization's and a user's level, and
// reads back what it set (never a secret's value); a stranger's calls
// fail.
func TestActionsSecretsThroughTheGiteaSDK(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice, carol := signUpForSDKWith(t, n, "all"), signUpForSDK(t, n)
	c := alice.client
	if _, _, err := c.CreateRepo(gitea.CreateRepoOption{Name: "sdk-secrets"}); err != nil {
		t.Fatal(err)
	}
	org := "sdk-org-" + alice.login
	if _, _, err := c.CreateOrg(gitea.CreateOrgOption{Name: org}); err != nil {
		t.Fatal(err)
	}

	res, err := c.CreateRepoActionSecret(alice.login, "sdk-secrets", "deploy_key", gitea.CreateOrUpdateSecretOption{Data: "k-1"})
	if err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("create a repository secret: %v %v", res, err)
	}
	if res, err = c.CreateRepoActionSecret(alice.login, "sdk-secrets", "DEPLOY_KEY", gitea.CreateOrUpdateSecretOption{Data: "k-2"}); err != nil || res.StatusCode != http.StatusNoContent {
		t.Fatalf("update a repository secret: %v %v", res, err)
	}
	secrets, _, err := c.ListRepoActionSecret(alice.login, "sdk-secrets", gitea.ListRepoActionSecretOption{})
	if err != nil || len(secrets) != 1 || secrets[0].Name != "DEPLOY_KEY" || secrets[0].Created.IsZero() {
		t.Fatalf("list the repository's secrets: %+v %v", secrets, err)
	}
	if _, err := c.CreateRepoActionVariable(alice.login, "sdk-secrets", "stage", "beta"); err != nil {
		t.Fatalf("create a repository variable: %v", err)
	}
	if _, err := c.UpdateRepoActionVariable(alice.login, "sdk-secrets", "stage", "gamma"); err != nil {
		t.Fatalf("update a repository variable: %v", err)
	}
	v, _, err := c.GetRepoActionVariable(alice.login, "sdk-secrets", "STAGE")
	if err != nil || v.Name != "STAGE" || v.Value != "gamma" || v.RepoID == 0 {
		t.Fatalf("get the repository variable: %+v %v", v, err)
	}

	if _, err := c.CreateOrgActionSecret(org, "ORG_TOKEN", gitea.CreateOrUpdateSecretOption{Data: "o-1"}); err != nil {
		t.Fatalf("create an organization secret: %v", err)
	}
	orgSecrets, _, err := c.ListOrgActionSecret(org, gitea.ListOrgActionSecretOption{})
	if err != nil || len(orgSecrets) != 1 || orgSecrets[0].Name != "ORG_TOKEN" {
		t.Fatalf("list the organization's secrets: %+v %v", orgSecrets, err)
	}
	if _, err := c.CreateOrgActionVariable(org, "REGION", gitea.CreateActionVariableOption{Value: "eu", Description: "where"}); err != nil {
		t.Fatalf("create an organization variable: %v", err)
	}
	if _, err := c.UpdateOrgActionVariable(org, "REGION", gitea.UpdateActionVariableOption{Name: "ZONE", Value: "eu-1"}); err != nil {
		t.Fatalf("rename an organization variable: %v", err)
	}
	ov, _, err := c.GetOrgActionVariable(org, "zone")
	if err != nil || ov.Name != "ZONE" || ov.Data != "eu-1" || ov.OwnerID == 0 || ov.RepoID != 0 {
		t.Fatalf("get the organization variable: %+v %v", ov, err)
	}

	if _, err := c.CreateUserActionSecret("MINE", gitea.CreateOrUpdateSecretOption{Data: "u-1"}); err != nil {
		t.Fatalf("create a user secret: %v", err)
	}
	uv, _, err := c.GetUserActionVariable("NONE")
	if err == nil {
		t.Fatalf("a variable never set: %+v", uv)
	}

	// A stranger reaches none of them.
	if _, _, err := carol.client.ListRepoActionSecret(alice.login, "sdk-secrets", gitea.ListRepoActionSecretOption{}); err == nil {
		t.Fatal("a stranger listed the repository's secrets")
	}
	if _, err := carol.client.CreateOrgActionSecret(org, "X", gitea.CreateOrUpdateSecretOption{Data: "x"}); err == nil {
		t.Fatal("a stranger set the organization's secret")
	}
	if _, err := carol.client.DeleteUserActionSecret("MINE"); err == nil {
		t.Fatal("a stranger deleted alice's secret")
	}

	for _, del := range []func() (*gitea.Response, error){
		func() (*gitea.Response, error) {
			return c.DeleteRepoActionSecret(alice.login, "sdk-secrets", "deploy_key")
		},
		func() (*gitea.Response, error) {
			return c.DeleteRepoActionVariable(alice.login, "sdk-secrets", "stage")
		},
		func() (*gitea.Response, error) { return c.DeleteOrgActionSecret(org, "ORG_TOKEN") },
		func() (*gitea.Response, error) { return c.DeleteUserActionSecret("MINE") },
	} {
		if res, err := del(); err != nil || res.StatusCode != http.StatusNoContent {
			t.Fatalf("a delete: %v %v", res, err)
		}
	}
	// The SDK sends this one to Gitea 1.25 and later only.
	if res := n.CallWith("DELETE", "/api/v1/orgs/"+org+"/actions/variables/ZONE", nil, nil, http.Header{"Authorization": {"token " + alice.token}}); res.Status != http.StatusNoContent {
		t.Fatalf("delete the organization variable: %d %s", res.Status, res.Body)
	}
}
