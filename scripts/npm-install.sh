#!/usr/bin/env bash
# Installs the locked npm packages. `npm ci` refuses this lock file on registries that serve
# only some platforms' optional binaries (Next's SWC, Tailwind's oxide for macOS/Windows are
# absent here, so the lock cannot list them); `npm install` then installs the same locked
# versions for this platform.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! npm ci --no-audit --no-fund 2>/tmp/npm-ci.log; then
  if grep -q "can only install packages when your package.json and package-lock.json" /tmp/npm-ci.log; then
    npm install --no-audit --no-fund
  else
    cat /tmp/npm-ci.log >&2
    exit 1
  fi
fi
