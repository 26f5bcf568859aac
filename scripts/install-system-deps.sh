#!/usr/bin/env bash
# Debian packages the tests and the demo need: Chromium (Playwright drives Debian's build, its own
# download is unreachable here), the PostgreSQL 15 server binaries, Prometheus (with promtool) and
# Alertmanager.
# Installs what is missing when run as root with apt; otherwise says what to install.
set -euo pipefail

# Usage: install-system-deps.sh [chromium] [postgresql-15] [prometheus] [prometheus-alertmanager]
#        (default: all four)
wanted=("$@")
[ ${#wanted[@]} -eq 0 ] && wanted=(chromium postgresql-15 prometheus prometheus-alertmanager)
need=()
for package in "${wanted[@]}"; do
  case "$package" in
    chromium) command -v chromium >/dev/null 2>&1 || need+=(chromium) ;;
    postgresql-15) [ -x /usr/lib/postgresql/15/bin/initdb ] || need+=(postgresql-15) ;;
    prometheus) [ -x /usr/bin/prometheus ] && [ -x /usr/bin/promtool ] || need+=(prometheus) ;;
    prometheus-alertmanager) [ -x /usr/bin/prometheus-alertmanager ] || need+=(prometheus-alertmanager) ;;
  esac
done
[ ${#need[@]} -eq 0 ] && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian packages: ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
else
  echo "Missing system packages: ${need[*]}. Install them with: sudo apt-get install ${need[*]}" >&2
  exit 1
fi
