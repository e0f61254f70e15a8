// Package scenario holds the main journeys of dForge (push, issue, pull
// request, review, merge, reward, vote) as scripts that read like a user's
// session: testdata/*.txtar, run by testscript against a whole node. The
// commands a script can use are listed in scenario_test.go; git runs the
// real git binary, and every other step goes through the HTTP API as a
// client would.
package scenario
