// Command gen writes the node's OpenAPI document (see package openapi):
//
//	go run ./tools/openapi/gen            # writes web/public/openapi.json
//	go run ./tools/openapi/gen -check     # fails when that file is out of date
//
// Run it from the repository root; `make openapi` does.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/dforge/dforge/tools/openapi"
)

func main() {
	dir := flag.String("dir", "internal/api", "the API package's directory")
	out := flag.String("o", "web/public/openapi.json", "where to write the document")
	check := flag.Bool("check", false, "only check that the file is up to date")
	flag.Parse()
	res, err := openapi.Generate(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "openapi:", err)
		os.Exit(1)
	}
	for _, w := range res.Warnings {
		fmt.Fprintln(os.Stderr, "openapi: warning:", w)
	}
	if *check {
		have, err := os.ReadFile(*out)
		if err != nil || !bytes.Equal(have, res.JSON) {
			fmt.Fprintf(os.Stderr, "openapi: %s is out of date with %s: run `make openapi`\n", *out, *dir)
			os.Exit(1)
		}
		fmt.Printf("%s is up to date (%d operations)\n", *out, res.Operations)
		return
	}
	if err := os.WriteFile(*out, res.JSON, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "openapi:", err)
		os.Exit(1)
	}
	fmt.Printf("wrote %s: %d operations\n", *out, res.Operations)
}
