#!/usr/bin/env bash
# The acceptance suite: the real agent CLIs judge what coffer installs.
#
#   tests/agents/run.sh [FILE.test.mjs …] [-- node --test options]
#
# Installs the pinned agents (tests/agents/install.sh: once per pin change,
# into .cache/agents or $COFFER_AGENTS_CACHE), builds coffer, and runs every
# tests/agents/*.test.mjs with Node's test runner. Each test works in its own
# throwaway HOME; nothing of yours is read or written.
#
#   COFFER_AGENTS_TIMEOUT=90   seconds any one agent command may take
#   COFFER_AGENTS_KEEP=1       keep the throwaway homes (each has commands.log)
#   COFFER_AGENTS_BY_COFFER=codex.mcp,…  install these by coffer, not by hand
#   COFFER_BIN=path            test this coffer binary instead of building one
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

start=$(date +%s)
cache=$(bash "$here/install.sh" | tail -n 1)
[ -d "$cache/node_modules/.bin" ] || { echo "agents: error: the install left no agents in '$cache'" >&2; exit 1; }
export COFFER_AGENTS_BIN="$cache/node_modules/.bin"

if [ -z "${COFFER_BIN:-}" ]; then
  (cd "$repo" && cargo build --locked --quiet)
  export COFFER_BIN="$repo/target/debug/coffer"
fi
[ -x "$COFFER_BIN" ] || { echo "agents: error: no coffer binary at $COFFER_BIN" >&2; exit 1; }

# The tests run on the pinned Node (the one the agents run on), falling back
# to the machine's where the registry has no Node build for this platform.
node=node
[ -x "$COFFER_AGENTS_BIN/node" ] && node="$COFFER_AGENTS_BIN/node"

files=()
opts=()
for a in "$@"; do
  case "$a" in
    *.test.mjs) files+=("$(cd "$(dirname "$a")" && pwd)/$(basename "$a")") ;;
    *) opts+=("$a") ;;
  esac
done
[ ${#files[@]} -gt 0 ] || files=("$here"/*.test.mjs)

printf 'agents: %s\n' "$("$node" -e '
  const d = require(process.argv[1]).dependencies;
  console.log(Object.entries(d).map(([n, v]) => n + "@" + v).join(", "));
' "$here/package.json"), node $("$node" --version)" >&2

cd "$here"
status=0
"$node" --test --test-reporter=spec --test-concurrency=1 --test-timeout=600000 "${opts[@]}" "${files[@]}" || status=$?
echo "agents: suite took $(( $(date +%s) - start ))s" >&2
exit $status
