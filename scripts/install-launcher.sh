#!/usr/bin/env bash
# Puts a `tandem` launcher for this checkout on the PATH, so `tandem` works in any folder.
# Where: $TANDEM_BIN_DIR when set, else /usr/local/bin when writable, else ~/.local/bin.
# The launcher is a short shell script that runs packages/cli/dist/main.js of this checkout
# with the node that ran the set-up (or the node on PATH if that one is gone); `tandem serve`
# gets the server's V8 flags.
# Called by scripts/setup.sh after the build; safe to run again (it rewrites its own launcher,
# never a `tandem` it did not write).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd -P)"
main="$root/packages/cli/dist/main.js"
marker='# tandem launcher, written by scripts/install-launcher.sh'

if [ -n "${TANDEM_BIN_DIR:-}" ]; then
  dir="$TANDEM_BIN_DIR"
elif [ -d /usr/local/bin ] && [ -w /usr/local/bin ]; then
  dir=/usr/local/bin
else
  dir="$HOME/.local/bin"
fi
if ! mkdir -p "$dir" 2>/dev/null || [ ! -w "$dir" ]; then
  echo "setup: cannot write to $dir; set TANDEM_BIN_DIR to a folder on your PATH you can write, or run \`pnpm tandem\` from $root" >&2
  exit 0
fi
target="$dir/tandem"
if [ -e "$target" ] && ! grep -qF "$marker" "$target" 2>/dev/null; then
  echo "setup: $target exists and was not written by Tandem's set-up; left as it is (set TANDEM_BIN_DIR to install the launcher elsewhere)" >&2
  exit 0
fi

quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
node_bin="$(command -v node)"
tmp="$target.$$.tmp"
{
  echo '#!/bin/sh'
  echo "$marker"
  echo "node=$(quote "$node_bin"); [ -x \"\$node\" ] || node=node"
  # `tandem serve` runs with the server's V8 flags, SERVER_NODE_FLAGS in
  # packages/server/src/serve/node-flags.ts (keep the two alike), unless NODE_OPTIONS sets them.
  echo 'flags=; if [ "$1" = serve ]; then'
  echo '  case "${NODE_OPTIONS:-}" in *max?semi?space*) ;; *) flags="$flags --max-semi-space-size=4" ;; esac'
  echo '  case "${NODE_OPTIONS:-}" in *liftoff?only*) ;; *) flags="$flags --liftoff-only" ;; esac'
  echo '  case "${NODE_OPTIONS:-}" in *interrupt?budget*) ;; *) flags="$flags --interrupt-budget=540672" ;; esac'
  echo 'fi'
  echo "exec \"\$node\" \$flags $(quote "$main") \"\$@\""
} >"$tmp"
chmod 755 "$tmp"
mv -f "$tmp" "$target"

case ":${PATH}:" in
  *":$dir:"*) echo "setup: \`tandem\` is on your PATH ($target); run it in any project folder" >&2 ;;
  *) echo "setup: installed $target, but $dir is not on your PATH; add it: export PATH=\"$dir:\$PATH\" (e.g. in ~/.bashrc or ~/.zshrc)" >&2 ;;
esac
