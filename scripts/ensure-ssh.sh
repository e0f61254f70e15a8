#!/usr/bin/env bash
# The git-over-SSH tests and bench-ssh drive OpenSSH's client; install it
# when missing and root.
set -euo pipefail
if command -v ssh >/dev/null && command -v ssh-keygen >/dev/null; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing openssh-client from Debian's packages" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssh-client >/dev/null
  exit 0
fi
echo "The OpenSSH client is missing: run 'sudo apt-get install -y openssh-client' and retry" >&2
exit 1
