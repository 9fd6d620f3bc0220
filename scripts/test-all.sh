#!/usr/bin/env bash
# Everything the tests need, then every test: lint, format, types, build, vitest, browser. Prints
# how long each phase took and the total: the whole run's budget is 15 minutes on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  echo "Installing Debian's chromium for the browser tests..."
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

started=$SECONDS
timings=()

phase() {
  local name=$1
  shift
  local start=$SECONDS
  echo "::: $name: $*"
  local status=0
  "$@" || status=$?
  timings+=("$(printf '%-10s %4d s%s' "$name" $((SECONDS - start)) "$([ $status -eq 0 ] || echo ', failed')")")
  return $status
}

report() {
  echo
  echo "Time per phase:"
  for line in "${timings[@]}"; do echo "  $line"; done
  printf '  %-10s %4d s\n' total $((SECONDS - started))
}
trap report EXIT

phase lint npm run lint
phase format npx prettier --check .
phase types npm run typecheck
# The build before vitest: the server suites drive the production build through the real server.
phase build npm run build
phase vitest npx vitest run
phase browser npx playwright test
