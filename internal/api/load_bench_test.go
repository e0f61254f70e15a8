package api_test

import (
	"fmt"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The API benches' load: 64 keep-alive connections, each making 20
// requests per round.
const loadConns, loadPerConn = 64, 20

// loadClient keeps a connection per load connection alive.
func loadClient() *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: loadConns}}
}

// timedGet is a GET of url as token's owner (none: anonymous) with
// client, and how long its answer took; any status but 200 is an error.
func timedGet(client *http.Client, url, token string) (time.Duration, error) {
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		return 0, err
	}
	if token != "" {
		req.Header.Set("Authorization", "token "+token)
	}
	start := time.Now()
	res, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("GET %s: %d", url, res.StatusCode)
	}
	return time.Since(start), nil
}

// underLoad reports the figures of the API benches for request i, which
// get makes and times: warm requests one at a time first (the cost of a
// request without queueing: 1conn-p50-ms; the first also fills the read
// caches: first-ms), then b.N rounds of loadConns connections making
// loadPerConn requests each (p50-ms, p99-ms). i counts every request.
func underLoad(b *testing.B, warm int, get func(i int) (time.Duration, error)) {
	var next atomic.Int64
	var seq []time.Duration
	for range warm {
		d, err := get(int(next.Add(1) - 1))
		if err != nil {
			b.Fatal(err)
		}
		seq = append(seq, d)
	}
	first := seq[0]
	slices.Sort(seq)
	var mu sync.Mutex
	var lat []time.Duration
	b.ResetTimer()
	for range b.N {
		var wg sync.WaitGroup
		for range loadConns {
			wg.Go(func() {
				for range loadPerConn {
					d, err := get(int(next.Add(1) - 1))
					if err != nil {
						b.Error(err)
						return
					}
					mu.Lock()
					lat = append(lat, d)
					mu.Unlock()
				}
			})
		}
		wg.Wait()
	}
	b.StopTimer()
	if len(lat) == 0 {
		b.Fatal("no answers")
	}
	slices.Sort(lat)
	b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
	b.ReportMetric(ms(lat[len(lat)*99/100]), "p99-ms")
	b.ReportMetric(ms(seq[len(seq)/2]), "1conn-p50-ms") // after ResetTimer, which clears metrics
	b.ReportMetric(ms(first), "first-ms")
}

// readAgain reports the p50 of requests 0 to n-1 read in turn on one
// connection, after underLoad read each before: what a page costs once
// it was read and nothing changed since.
func readAgain(b *testing.B, n int, get func(i int) (time.Duration, error)) {
	var again []time.Duration
	for i := range n {
		d, err := get(i)
		if err != nil {
			b.Fatal(err)
		}
		again = append(again, d)
	}
	slices.Sort(again)
	b.ReportMetric(ms(again[len(again)/2]), "1conn-again-p50-ms")
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
