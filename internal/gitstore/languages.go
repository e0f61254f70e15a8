package gitstore

import (
	"context"
	"fmt"
	"path"
	"strings"
)

// Languages: the bytes of each programming or markup language in a
// commit's tree, as Gitea's /languages reports them. Like Gitea (go-enry),
// vendored code and dotfiles are left out, and so are prose and data
// (Markdown, JSON, YAML): only the code a repository is written in counts.

// languageByExt maps a file's extension (lower case, with its dot) to
// the name GitHub's linguist gives its language.
var languageByExt = map[string]string{
	".go": "Go", ".rs": "Rust", ".c": "C", ".h": "C", ".cc": "C++", ".cpp": "C++", ".cxx": "C++", ".hpp": "C++", ".hh": "C++",
	".cs": "C#", ".java": "Java", ".kt": "Kotlin", ".kts": "Kotlin", ".scala": "Scala", ".swift": "Swift", ".m": "Objective-C",
	".js": "JavaScript", ".mjs": "JavaScript", ".cjs": "JavaScript", ".jsx": "JavaScript", ".ts": "TypeScript", ".tsx": "TSX",
	".py": "Python", ".rb": "Ruby", ".php": "PHP", ".pl": "Perl", ".lua": "Lua", ".r": "R", ".jl": "Julia", ".dart": "Dart",
	".ex": "Elixir", ".exs": "Elixir", ".erl": "Erlang", ".hs": "Haskell", ".ml": "OCaml", ".clj": "Clojure", ".elm": "Elm",
	".fs": "F#", ".zig": "Zig", ".nim": "Nim", ".v": "V", ".sol": "Solidity", ".sql": "SQL", ".proto": "Protocol Buffer",
	".sh": "Shell", ".bash": "Shell", ".zsh": "Shell", ".ps1": "PowerShell", ".bat": "Batchfile", ".mk": "Makefile",
	".html": "HTML", ".htm": "HTML", ".css": "CSS", ".scss": "SCSS", ".sass": "Sass", ".less": "Less", ".vue": "Vue",
	".svelte": "Svelte", ".tex": "TeX", ".vim": "Vim Script", ".nix": "Nix", ".tf": "HCL", ".cmake": "CMake", ".asm": "Assembly",
}

// languageByName maps whole file names that have no telling extension.
var languageByName = map[string]string{"Makefile": "Makefile", "GNUmakefile": "Makefile", "Dockerfile": "Dockerfile", "CMakeLists.txt": "CMake"}

// vendorDirs are directories of other people's code, left out as go-enry's
// IsVendor leaves them.
var vendorDirs = []string{"vendor/", "node_modules/", "third_party/", "bower_components/"}

// language is the language of the file at p, "" for none counted.
func language(p string) string {
	if strings.HasPrefix(path.Base(p), ".") || Vendored(p) {
		return ""
	}
	return LanguageOf(p)
}

// Vendored reports whether p lies in a directory of other people's code.
func Vendored(p string) bool {
	for _, d := range vendorDirs {
		if strings.HasPrefix(p, d) || strings.Contains(p, "/"+d) {
			return true
		}
	}
	return false
}

// LanguageOf is the programming or markup language of a file named p by
// its name or extension alone, "" when neither tells.
func LanguageOf(p string) string {
	name := path.Base(p)
	if l, ok := languageByName[name]; ok {
		return l
	}
	return languageByExt[strings.ToLower(path.Ext(name))]
}

// Languages counts the bytes of each language in commit's tree. commit is
// a full id, so its answer never changes and is cached: callers share the
// map and must not change it.
func Languages(ctx context.Context, dir, commit string) (map[string]int64, error) {
	if !isFullID(commit) {
		return nil, fmt.Errorf("%w: %q is not a commit id", ErrInvalidRef, commit)
	}
	return cachedIn(dir, cacheKey("languages", dir, commit), func() (map[string]int64, error) {
		entries, err := lsTreeGit(ctx, dir, commit+"^{tree}", "", true)
		if err != nil {
			return nil, err
		}
		out := map[string]int64{}
		for _, e := range entries {
			if e.Type != "blob" || e.Mode == "120000" {
				continue
			}
			if l := language(e.Path); l != "" {
				out[l] += e.Size
			}
		}
		return out, nil
	}, func(m map[string]int64) int64 { return int64(48 * (len(m) + 1)) })
}
