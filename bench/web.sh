#!/usr/bin/env bash
# make bench-web: Lighthouse on /, /explore, /governance, a repository home and a pull request's files.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -d node_modules/lighthouse ]; then
  npm install --no-audit --no-fund --silent
fi
exec node web.mjs "$@"
