#!/usr/bin/env bash
# Everything the tests need, then every test: lint, types, unit/integration, build, browser.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  echo "Installing Debian's chromium for the browser tests..."
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

npm run lint
npx prettier --check .
npm run typecheck
# The build first: the fuzz suite drives the production build through the real server.
npm run build
npx vitest run
npx playwright test
