#!/usr/bin/env bash
# Prepares this machine for flushcheck's guest tests, as root, on Debian (bookworm):
#   1. installs docker.io and debootstrap when they are missing,
#   2. starts dockerd in the background when no engine answers, and waits for it,
#   3. creates the local base image the guest Dockerfiles start FROM (flushcheck/debian-bookworm-base:1):
#      a `docker pull debian:bookworm-slim` where a registry is reachable, otherwise a debootstrap'ed
#      minimal bookworm rootfs from the Debian mirror this machine's apt uses, `docker import`ed.
# Idempotent: a rerun skips what is done (the rootfs tarball is cached in $FLUSHCHECK_CACHE).
#
# Environment (all optional):
#   FLUSHCHECK_CACHE           where the rootfs tarball is kept  (/var/cache/flushcheck)
#   FLUSHCHECK_DOCKERD_LOG     dockerd's log when we start it    (/var/log/flushcheck-dockerd.log)
#   FLUSHCHECK_DOCKERD_TIMEOUT seconds to wait for dockerd       (60)
#   FLUSHCHECK_PULL            "never" skips the registry pull, "always" fails without it (try)
#   FLUSHCHECK_PULL_TIMEOUT    seconds the pull may take         (60)
#   FLUSHCHECK_MIRROR          Debian mirror for debootstrap     (read from /etc/apt/sources*)
set -euo pipefail

BASE_IMAGE=flushcheck/debian-bookworm-base:1  # the Dockerfiles start FROM this tag
CACHE=${FLUSHCHECK_CACHE:-/var/cache/flushcheck}
DOCKERD_LOG=${FLUSHCHECK_DOCKERD_LOG:-/var/log/flushcheck-dockerd.log}
DOCKERD_TIMEOUT=${FLUSHCHECK_DOCKERD_TIMEOUT:-60}
PULL=${FLUSHCHECK_PULL:-try}
PULL_TIMEOUT=${FLUSHCHECK_PULL_TIMEOUT:-60}
SUITE=bookworm
PULL_IMAGE=debian:bookworm-slim

say() { echo "prepare.sh: $*" >&2; }
die() { echo "prepare.sh: error: $*" >&2; exit 1; }
started=$(date +%s)

# ---------------------------------------------------------------- 1. packages
need=()
command -v dockerd >/dev/null 2>&1 || need+=(docker.io)
command -v debootstrap >/dev/null 2>&1 || need+=(debootstrap)
if ((${#need[@]})); then
  [ "$(id -u)" = 0 ] || die "needs root to install ${need[*]} (apt-get install ${need[*]})"
  say "installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# ---------------------------------------------------------------- 2. the engine
if docker info >/dev/null 2>&1; then
  say "docker engine already answers"
else
  [ "$(id -u)" = 0 ] || die "no docker engine answers and starting dockerd needs root"
  # /var/run/docker.pid is dockerd's own pidfile: no pgrep needed (procps is not in minimal systems).
  pid=$(cat /var/run/docker.pid 2>/dev/null || true)
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    say "dockerd runs (pid $pid) but does not answer yet; waiting"
  else
    say "starting dockerd (log: $DOCKERD_LOG)"
    mkdir -p "$(dirname "$DOCKERD_LOG")"
    # containerd is started by dockerd itself; setsid keeps the engine alive after this script.
    setsid nohup dockerd >>"$DOCKERD_LOG" 2>&1 </dev/null &
    pid=$!
  fi
  deadline=$(( $(date +%s) + DOCKERD_TIMEOUT ))
  until timeout 5 docker info >/dev/null 2>&1; do
    if (( $(date +%s) >= deadline )); then
      tail -n 30 "$DOCKERD_LOG" >&2 || true
      die "dockerd did not answer within ${DOCKERD_TIMEOUT}s (last lines of $DOCKERD_LOG above)"
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
      tail -n 30 "$DOCKERD_LOG" >&2 || true
      die "dockerd exited while starting (last lines of $DOCKERD_LOG above)"
    fi
    sleep 0.5
  done
  say "docker engine answers: $(docker info --format '{{.ServerVersion}}, storage driver {{.Driver}}')"
fi

# ---------------------------------------------------------------- 3. the base image
if docker image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
  say "base image $BASE_IMAGE exists"
else
  pulled=no
  if [ "$PULL" != never ]; then
    say "trying docker pull $PULL_IMAGE (timeout ${PULL_TIMEOUT}s)"
    mkdir -p "$CACHE"
    if timeout "$PULL_TIMEOUT" docker pull -q "$PULL_IMAGE" >/dev/null 2>"$CACHE/pull.err"; then
      docker tag "$PULL_IMAGE" "$BASE_IMAGE"
      pulled=yes
      say "pulled $PULL_IMAGE, tagged $BASE_IMAGE"
    else
      say "pull failed ($(tail -n 1 "$CACHE/pull.err" 2>/dev/null | cut -c1-160)); bootstrapping locally"
      [ "$PULL" = always ] && die "FLUSHCHECK_PULL=always and the pull failed"
    fi
    rm -f "$CACHE/pull.err"
  fi
  if [ "$pulled" = no ]; then
    mkdir -p "$CACHE"
    tarball="$CACHE/debian-$SUITE-minbase-$(dpkg --print-architecture).tar"
    if [ -s "$tarball" ]; then
      say "using the cached rootfs $tarball"
    else
      [ "$(id -u)" = 0 ] || die "debootstrap needs root"
      mirror=${FLUSHCHECK_MIRROR:-}
      if [ -z "$mirror" ]; then
        # The first plain Debian archive apt uses for $SUITE: deb822 (.sources) or one-line format.
        # A machine with only a classic sources.list has no *.sources: the glob must then match nothing.
        shopt -s nullglob
        sources=(/etc/apt/sources.list.d/*.sources)
        shopt -u nullglob
        if ((${#sources[@]})); then
          mirror=$(awk -v suite="$SUITE" '
              /^[[:space:]]*$/ { if (uri != "" && ok) { print uri; exit } uri = ""; ok = 0; next }
              /^URIs:/ { uri = $2 }
              /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == suite) ok = 1 }
              END { if (uri != "" && ok) print uri }' "${sources[@]}" | head -n 1) || true
        fi
      fi
      if [ -z "$mirror" ] && [ -f /etc/apt/sources.list ]; then
        mirror=$(awk -v suite="$SUITE" '$1 == "deb" && $0 !~ /security/ {
            for (i = 2; i <= NF; i++) if ($i == suite) { u = $(i - 1); print u; exit } }' /etc/apt/sources.list) || true
      fi
      mirror=${mirror:-http://deb.debian.org/debian}
      root="$CACHE/rootfs.tmp"
      rm -rf "$root"
      trap 'rm -rf "$root" "$tarball.tmp"' EXIT
      say "debootstrap --variant=minbase $SUITE from $mirror (takes a minute or two)"
      if ! debootstrap --variant=minbase "$SUITE" "$root" "$mirror" >"$CACHE/debootstrap.log" 2>&1; then
        tail -n 20 "$CACHE/debootstrap.log" >&2
        die "debootstrap failed (full log: $CACHE/debootstrap.log)"
      fi
      # Like the official slim image: no package caches, no apt lists (the Dockerfiles run apt-get update).
      rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/var/log/*.log \
             "$root"/debootstrap "$root"/tmp/* 2>/dev/null || true
      printf '%s\n' "deb $mirror $SUITE main" >"$root/etc/apt/sources.list"
      tar --numeric-owner -C "$root" -cf "$tarball.tmp" .
      mv "$tarball.tmp" "$tarball"
      rm -rf "$root"
      trap - EXIT
      say "rootfs cached at $tarball ($(du -h "$tarball" | cut -f1))"
    fi
    docker import --change 'CMD ["/bin/bash"]' --change 'ENV LANG=C.UTF-8' \
        --message "debootstrap --variant=minbase $SUITE (flushcheck container-images/prepare.sh)" \
        "$tarball" "$BASE_IMAGE" >/dev/null
    say "imported $tarball as $BASE_IMAGE"
  fi
fi

say "done in $(( $(date +%s) - started ))s: engine up, base image $BASE_IMAGE"
