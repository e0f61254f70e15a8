#!/bin/sh
# build-rev.sh REV OUT: builds the dforge binary of git revision REV into OUT,
# once (a benchmark's yardstick: "today's code" against this checkout). The
# revision is checked out in a temporary worktree; its web app is this
# checkout's built one (web/dist), which the API benchmarks never load.
set -eu
rev=$1 out=$2
[ -x "$out" ] && exit 0
here=$(cd "$(dirname "$0")/.." && pwd)
[ -f "$here/web/dist/index.html" ] || { echo "build-rev: run make web first" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'git -C "$here" worktree remove --force "$tmp/src" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
git -C "$here" worktree add --detach "$tmp/src" "$rev" >/dev/null
rm -rf "$tmp/src/web/dist" && cp -r "$here/web/dist" "$tmp/src/web/dist"
mkdir -p "$(dirname "$out")"
echo "build-rev: building $rev into $out" >&2
(cd "$tmp/src" && go build -o "$out.tmp" ./cmd/dforge) && mv "$out.tmp" "$out"
