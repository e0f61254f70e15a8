#!/usr/bin/env bash
# Runs a command with DFORGE_TEST_PG pointing at a throwaway PostgreSQL server
# started from Debian's packages. Without PostgreSQL it runs the command as is,
# so the SQLite half of the store tests still runs everywhere.
set -euo pipefail

if [ -n "${DFORGE_TEST_PG:-}" ]; then exec "$@"; fi

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bindir" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "with-postgres: installing postgresql" >&2
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; } >/dev/null 2>&1 || true
  bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
fi
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  echo "with-postgres: no PostgreSQL server here; store tests run on SQLite only" >&2
  exec "$@"
fi

dir=$(mktemp -d /tmp/dforge-pg.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# initdb refuses to run as root: run the server as the postgres user then.
as_pg=()
if [ "$(id -u)" = 0 ]; then
  chown postgres "$dir"
  as_pg=(runuser -u postgres --)
fi
"${as_pg[@]}" "$bindir/initdb" -D "$dir/data" -U dforge --auth=trust -E UTF8 >/dev/null
"${as_pg[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
  -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c full_page_writes=off" start >/dev/null
cleanup() {
  "${as_pg[@]}" "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
export DFORGE_TEST_PG="postgres://dforge@127.0.0.1:$port/postgres?sslmode=disable"
echo "with-postgres: PostgreSQL on 127.0.0.1:$port" >&2
"$@"
