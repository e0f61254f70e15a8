// Package web embeds the built single-page app and its route table, so the
// dforge binary serves the front end with no files beside it.
package web

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// The route table is shared with the client router so that the server knows
// which paths are pages (200) and which are not (404).
//
//go:embed src/lib/routes.json
var routesJSON []byte

// Route is one entry of the client's route table.
type Route struct {
	Path   string `json:"path"`
	Screen string `json:"screen"`
}

// Dist returns the built app (web/dist). Before `make web` has run it holds
// only a placeholder, and the server says so instead of serving a page.
func Dist() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(fmt.Sprintf("web: embedded dist: %v", err)) // impossible: the directory is embedded
	}
	return sub
}

// Routes returns the client's route table.
func Routes() ([]Route, error) {
	var routes []Route
	if err := json.Unmarshal(routesJSON, &routes); err != nil {
		return nil, fmt.Errorf("parse route table: %w", err)
	}
	return routes, nil
}
