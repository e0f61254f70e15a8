// Package logtest gives tests a log sink that a node's goroutines write
// while the test reads it.
package logtest

import (
	"bytes"
	"strings"
	"sync"
)

// Buffer is an io.Writer for a logger, safe for concurrent use.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String is everything written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Count is how many lines hold all of parts.
func (b *Buffer) Count(parts ...string) int {
	n := 0
	for _, line := range strings.Split(b.String(), "\n") {
		if line != "" && containsAll(line, parts) {
			n++
		}
	}
	return n
}

func containsAll(line string, parts []string) bool {
	for _, p := range parts {
		if !strings.Contains(line, p) {
			return false
		}
	}
	return true
}
