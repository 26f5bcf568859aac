#!/usr/bin/env bash
# npm run demo: the app on the embedded database with seed data, from a fresh clone.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "Installing npm packages…"
  bash scripts/npm-install.sh
fi
if [ ! -f .next/BUILD_ID ] || [ -n "$(find app components lib -newer .next/BUILD_ID -type f -print -quit)" ]; then
  echo "Building the app…"
  npx next build
fi
# Live views need Prometheus, alert delivery Alertmanager; without them the app still runs and
# says what to install.
bash scripts/install-system-deps.sh prometheus prometheus-alertmanager || true
exec npx tsx scripts/demo-stack.ts "$@"
