#!/usr/bin/env bash
# npm test: every test of the project, from a fresh clone. Installs what it needs, builds the
# app, runs unit and integration tests (vitest, on PostgreSQL 15 and on embedded PGlite) and the
# end-to-end tests (Playwright in Chromium), then prints one line: "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-system-deps.sh || exit 1
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  bash scripts/npm-install.sh || exit 1
fi
npm run --silent generate >/dev/null || exit 1

results=.test-results
rm -rf "$results" && mkdir -p "$results"
status=0

echo "== build"
npx next build >"$results/build.log" 2>&1 || { cat "$results/build.log"; exit 1; }

echo "== unit and integration tests"
npx vitest run --reporter=default --reporter=json --outputFile="$results/vitest.json" || status=1

echo "== end-to-end tests"
PLAYWRIGHT_JSON_OUTPUT_NAME="$results/playwright.json" npx playwright test --reporter=list,json || status=1

node scripts/test-summary.mjs "$results" || status=1
exit $status
