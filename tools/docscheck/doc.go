// Package docscheck holds the tests that keep the documentation true to the
// tree: docs/architecture.md stays a map short enough to read (at most
// maxMapLines lines) with one folder-table row per Go package under
// internal/, and every relative link in the repository's Markdown names a
// file that exists (and, for a link into Markdown, a heading that exists).
//
//	go test ./tools/docscheck
//
// The reference text itself lives beside the code, in each package's
// README.md; this package has no code of its own.
package docscheck
