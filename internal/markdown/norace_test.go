//go:build !race

package markdown_test

// pathologicalSize is the API's limit for POST /markdown.
const pathologicalSize = 256 << 10
