#!/usr/bin/env bash
# Installs the Debian packages the build needs, only when one is missing (a fresh machine lacks
# libedit-dev and libsqlite3-dev). Runs as root on CI; elsewhere it uses sudo if it has to.
# With --tests, also the tools only the tests use: promtool (Debian's prometheus package) checks
# the /metrics text, systemd-analyze (systemd) the service unit, haproxy the shipped balancer
# configuration (scenario 74).
set -euo pipefail
packages=(libedit-dev zlib1g-dev libsqlite3-dev libssl-dev libvips-dev libchafa-dev pkg-config)
[ "${1:-}" = --tests ] && packages+=(prometheus systemd haproxy)
need=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
# PostgreSQL, for the tests of the PostgreSQL store (Tests/MessageAIPostgresTests): they start a
# throw-away cluster from /usr/lib/postgresql/*/bin (not on PATH) and never use the `main`
# cluster the package creates (and may start on 5432). Checked by the binaries the tests use.
ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || need+=(postgresql)
if [ ${#need[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "installing: ${need[*]}" >&2
  $sudo apt-get update -qq
  # No recommends: libvips-dev alone would pull in ~150 packages with them (documentation,
  # tools); the headers and libraries it depends on are all it needs. libchafa-dev (the
  # client's terminal image previews) needs only libchafa0 and GLib. postgresql without
  # recommends skips sysstat and the like.
  # No service starts at install (prometheus's and postgresql's packages would start theirs):
  # the tests start what they need themselves and stop it by PID, and nothing may be left
  # running after a CI run. policy-rc.d answering 101 is Debian's way to say "not now".
  guard=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    guard=/usr/sbin/policy-rc.d
    printf '#!/bin/sh\nexit 101\n' | $sudo tee "$guard" >/dev/null
    $sudo chmod 755 "$guard"
  fi
  status=0
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null || status=$?
  [ -z "$guard" ] || $sudo rm -f "$guard"
  exit "$status"
fi
