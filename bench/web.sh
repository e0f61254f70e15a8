#!/usr/bin/env bash
# make bench-web: Lighthouse on /, /explore and /governance against the built binary.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -d node_modules/lighthouse ]; then
  npm install --no-audit --no-fund --silent
fi
exec node web.mjs "$@"
