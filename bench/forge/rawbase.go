package main

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os/exec"
	"strings"

	"github.com/dforge/dforge/bench/internal/corpus"
)

// processPerRead is the raw file's yardstick: what the node did before its
// cat-file pool, a `git cat-file blob` started for every request, served
// by this process from the node's own bare repository. Its URL is
// /raw/<path>; it answers the branch's file.
type processPerRead struct {
	srv *http.Server
	URL string
}

func startProcessPerRead(gitBin, dir string) (*processPerRead, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /raw/{path...}", func(w http.ResponseWriter, r *http.Request) {
		path := r.PathValue("path")
		if strings.HasPrefix(path, "-") {
			http.Error(w, "bad path", http.StatusBadRequest)
			return
		}
		cmd := exec.CommandContext(r.Context(), gitBin, "--git-dir", dir, "cat-file", "blob", corpus.Branch+":"+path)
		w.Header().Set("Content-Type", "application/octet-stream")
		cmd.Stdout = w
		// A request the load generator dropped at the end of a run has
		// its answer cut; only a file git could not give is a 404.
		if err := cmd.Run(); err != nil && r.Context().Err() == nil {
			http.Error(w, err.Error(), http.StatusNotFound)
		}
	})
	p := &processPerRead{srv: &http.Server{Handler: mux}, URL: "http://" + ln.Addr().String()}
	go p.srv.Serve(ln)
	return p, nil
}

func (p *processPerRead) stop(ctx context.Context) error {
	if err := p.srv.Shutdown(ctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
