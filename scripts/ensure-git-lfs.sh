#!/usr/bin/env bash
# The Git LFS tests drive the real git-lfs client; install it when missing and root.
set -euo pipefail
if command -v git-lfs >/dev/null; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing git-lfs from Debian's packages" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq git-lfs >/dev/null
  exit 0
fi
echo "git-lfs is missing: run 'sudo apt-get install -y git-lfs' and retry" >&2
exit 1
