#!/bin/sh
# Time the installed hook command as a whole process, next to python3's
# start-up, on this machine. See docs/performance.md for the method.
#
#   benches/hook-latency.sh [--fifo] [--rounds N]
#
# Builds the shipped binary (scripts/build-dist.sh: static, musl, PIE) and
# the benchmark, then runs it: it applies a desired file with one
# file source in a throwaway home, reads the command
# `apply` wrote into ~/.claude/settings.json, and runs it N times (default
# 400) from spawn to exit, interleaved with /bin/true and python3. Prints a
# Markdown table: wall-clock median and percentiles, and the CPU time the
# process itself used.
#
# --fifo runs the measurement (not the build) at SCHED_FIFO priority 10
# (`chrt`, needs root), so that other work on a shared machine does not
# queue in front of the processes being timed. Without it the figures
# include whatever else the machine is doing.
set -eu
cd "$(dirname "$0")/.."
fifo=
if [ "${1:-}" = "--fifo" ]; then
    fifo="chrt -f 10"
    shift
fi
command -v python3 >/dev/null || { echo "python3 is needed for the comparison" >&2; exit 1; }
bench=$(cargo bench --bench hook_latency --no-run 2>&1 |
    sed -n 's/.*Executable benches\/hook_latency.rs (\(.*\))/\1/p' | tail -n 1)
[ -x "$bench" ] || { echo "could not build the benchmark" >&2; exit 1; }
COFFER_BIN=$(scripts/build-dist.sh | tail -n 1)
[ -x "$COFFER_BIN" ] || { echo "could not build coffer" >&2; exit 1; }
export COFFER_BIN
echo "machine: $(nproc) cores, $(uname -sr), $(python3 --version 2>&1), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "coffer: $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(file -b "$COFFER_BIN" | grep -o '[a-z-]* linked' || echo '?')${fifo:+, measured under $fifo}"
exec $fifo "$bench" "$@"
