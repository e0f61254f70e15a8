package index

import "time"

// SetRetry shortens ix's retry pauses so a test sees several retries.
func SetRetry(ix *Index, first, max time.Duration) {
	ix.retryMin, ix.retryMax = first, max
}
