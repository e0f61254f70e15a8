package readdb

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Args numbers a statement's bound parameters as they are added.
type Args []any

// Add binds v and returns its placeholder.
func (a *Args) Add(v any) string {
	*a = append(*a, v)
	return "$" + strconv.Itoa(len(*a))
}

// List binds each of vs and returns their placeholders, comma-separated.
func (a *Args) List(vs []string) string {
	ps := make([]string, len(vs))
	for i, v := range vs {
		ps[i] = a.Add(v)
	}
	return strings.Join(ps, ", ")
}

// Int is v as SQL's 64-bit integer, refusing what does not fit.
func Int(v uint64) (int64, error) {
	if v > math.MaxInt64 {
		return 0, fmt.Errorf("%d overflows the SQL projection's 64-bit integers", v)
	}
	return int64(v), nil
}
