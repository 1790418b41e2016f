#!/usr/bin/env bash
# Installs the agent CLIs pinned in tests/agents/package.json (exact versions,
# whole tree locked by package-lock.json) into a cache folder, and prints the
# folder whose bin/ holds `claude`, `codex`, `gemini`, `opencode` and `node`.
#
# Idempotent: a stamp records the hash of the pins; when it matches and every
# CLI answers `--version` with its pinned version, nothing is downloaded.
# Only the npm registry is contacted, and only when the pins changed.
#
#   COFFER_AGENTS_CACHE   where to install (default: <repo>/.cache/agents,
#                         ignored by git; .ci/run points it outside the clone
#                         so fresh CI clones on one machine share it)
#   COFFER_AGENTS_OFFLINE=1  never contact the registry: fail if not cached
#
# Install scripts: npm runs none (--ignore-scripts). Two packages need theirs
# to put their native binary in place of a placeholder, and they are run here
# by name: @anthropic-ai/claude-code (install.cjs) and opencode-ai
# (postinstall.mjs). The others (keytar, node-pty: optional native modules of
# gemini-cli, which falls back without them) would compile or download and are
# not run.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${COFFER_AGENTS_CACHE:-$repo/.cache/agents}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)

log() { printf 'agents: %s\n' "$*" >&2; }
die() { printf 'agents: error: %s\n' "$*" >&2; exit 1; }

command -v npm >/dev/null || die "npm is not on PATH (the suite needs Node.js >= 18 and npm to install the agents)"
command -v node >/dev/null || die "node is not on PATH"

key=$( { cat "$here/package.json" "$here/package-lock.json"; uname -sm; } | sha256sum | cut -c1-16)
stamp="$cache/stamp"
bin="$cache/node_modules/.bin"

# The pinned versions, from the one pin file.
pins() { node -e '
  const p = require(process.argv[1]);
  const d = p.dependencies;
  for (const [n, bin] of [["@anthropic-ai/claude-code","claude"],["@openai/codex","codex"],["@google/gemini-cli","gemini"],["opencode-ai","opencode"]])
    console.log(bin + " " + d[n]);
' "$here/package.json"; }

# True when every CLI in the cache answers with its pinned version.
verify() {
  local name want got
  while read -r name want; do
    [ -x "$bin/$name" ] || { log "$name is missing from $bin"; return 1; }
    # codex and gemini are launched by node: the cache's node comes first.
    got=$(cd "$cache" && PATH="$bin:$PATH" HOME="$cache/verify-home" timeout 60 "$bin/$name" --version 2>/dev/null | head -n 1) || true
    case "$got" in
      *"$want"*) ;;
      *) log "$name --version said '${got:-nothing}', pinned $want"; return 1 ;;
    esac
  done < <(pins)
  rm -rf "$cache/verify-home"
}

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$key" ] && verify; then
  log "cached in $cache ($(du -sh "$cache/node_modules" | cut -f1))"
  printf '%s\n' "$cache"
  exit 0
fi

[ "${COFFER_AGENTS_OFFLINE:-}" = 1 ] && die "the pinned agents are not in $cache and COFFER_AGENTS_OFFLINE=1"

log "installing the pinned agents into $cache (about 1.5 GiB; once per pin change)"
start=$(date +%s)
rm -f "$stamp"
rm -rf "$cache/node_modules" "$cache/verify-home"
cp "$here/package.json" "$here/package-lock.json" "$cache/"
# `npm install` from the lock file: every package at its locked version and
# integrity. (Not `npm ci`: opencode-ai names platform packages that were
# never published for its version, which npm leaves out of the lock file and
# `npm ci` then refuses as out of sync; `npm install` skips them as the
# optional packages they are.) The registry is the only host contacted; a
# stalled download fails the install rather than hanging CI.
# (npm's own report goes to stderr: stdout carries only the folder.)
(cd "$cache" && timeout 900 npm install --ignore-scripts --no-save --no-audit --no-fund \
  --loglevel=error --fetch-timeout=120000 --fetch-retries=3 >&2) \
  || die "npm install failed (see the npm output above)"

# The two install scripts the agents need (see the header).
node_bin=node
[ -x "$bin/node" ] && node_bin="$bin/node"
(cd "$cache/node_modules/@anthropic-ai/claude-code" && "$node_bin" install.cjs >/dev/null) \
  || die "@anthropic-ai/claude-code: install.cjs failed"
(cd "$cache/node_modules/opencode-ai" && "$node_bin" ./postinstall.mjs >/dev/null) \
  || die "opencode-ai: postinstall.mjs failed"

verify || die "the installed agents do not answer with their pinned versions"
printf '%s\n' "$key" > "$stamp"
log "installed in $(( $(date +%s) - start ))s, $(du -sh "$cache/node_modules" | cut -f1)"
printf '%s\n' "$cache"
