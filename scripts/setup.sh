#!/usr/bin/env bash
# Installs everything Tandem needs on a fresh machine and builds it.
# Used by both README commands and by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."

PNPM_VERSION=12.4.2
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm -v 2>/dev/null)" != "$PNPM_VERSION" ]; then
  echo "setup: installing pnpm $PNPM_VERSION" >&2
  npm i -g -E "pnpm@$PNPM_VERSION" >&2
fi

# node-pty compiles from source; machines without internet cannot download Node's
# headers, so point node-gyp at the local ones when they are there.
if [ -z "${npm_config_nodedir:-}" ] && [ -f /usr/include/node/common.gypi ]; then
  export npm_config_nodedir=/usr
fi

pnpm install --frozen-lockfile >&2
pnpm build >&2

# `tandem` on the PATH, so it works in any folder (README "On a fresh machine"). A CI run
# (CI set) leaves the launcher alone: it would point the user's `tandem` at a throwaway clone.
if [ -z "${CI:-}" ]; then
  ./scripts/install-launcher.sh
else
  echo "setup: CI is set; the tandem launcher is left as it is" >&2
fi
