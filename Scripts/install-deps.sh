#!/usr/bin/env bash
# Installs the Debian packages the build needs, only when one is missing (a fresh machine lacks
# libedit-dev and libsqlite3-dev). Runs as root on CI; elsewhere it uses sudo if it has to.
set -euo pipefail
need=()
for p in libedit-dev zlib1g-dev libsqlite3-dev libssl-dev libvips-dev libchafa-dev pkg-config; do
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
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
