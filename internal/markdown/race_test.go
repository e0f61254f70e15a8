//go:build race

package markdown_test

// pathologicalSize is smaller under the race detector, which makes
// goldmark several times slower: 64 KiB, the most a stored body holds.
const pathologicalSize = 64 << 10
