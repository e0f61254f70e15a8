#!/usr/bin/env bash
# Runs a command beside a Docker daemon of its own and a job image, for the
# runner's Docker-mode test (make test-docker). Installs Debian's docker.io
# and busybox-static when missing and root; the daemon keeps its data in a
# temporary directory and is stopped, by its pid, on exit. The image is
# busybox's static binary and a marker file, imported from a tarball: this
# machine reaches no registry, and act uses an image it finds locally.
set -euo pipefail
if ! command -v dockerd >/dev/null || [ ! -x /bin/busybox ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "installing docker.io and busybox-static from Debian's packages" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io busybox-static >/dev/null
  else
    echo "dockerd or busybox is missing: run 'sudo apt-get install -y docker.io busybox-static' and retry" >&2
    exit 1
  fi
fi
dir=$(mktemp -d /tmp/dforge-docker.XXXXXX)
sock="$dir/docker.sock"
dockerd --data-root "$dir/data" --exec-root "$dir/exec" --pidfile "$dir/pid" -H "unix://$sock" \
  --storage-driver vfs >"$dir/log" 2>&1 &
daemon=$!
stop() {
  kill "$daemon" 2>/dev/null || true
  for _ in $(seq 1 30); do kill -0 "$daemon" 2>/dev/null || break; sleep 1; done
  kill -9 "$daemon" 2>/dev/null || true
  rm -rf "$dir" 2>/dev/null || true
}
trap stop EXIT
export DOCKER_HOST="unix://$sock"
for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && break; sleep 1; done
docker info >/dev/null || { echo "the Docker daemon did not start:" >&2; tail -20 "$dir/log" >&2; exit 1; }

root="$dir/rootfs"
mkdir -p "$root/bin" "$root/etc" "$root/tmp" "$root/usr/bin"
cp /bin/busybox "$root/bin/busybox"
for applet in $(/bin/busybox --list); do [ "$applet" = busybox ] || ln -s busybox "$root/bin/$applet"; done
ln -s /bin/env "$root/usr/bin/env"
echo "root:x:0:0:root:/root:/bin/sh" >"$root/etc/passwd"
echo "dforge-ci image" >"$root/etc/dforge-image"
export DFORGE_TEST_IMAGE=dforge-ci:busybox
tar -C "$root" -c . | docker import --change 'ENV PATH=/usr/bin:/bin' - "$DFORGE_TEST_IMAGE" >/dev/null
"$@"
