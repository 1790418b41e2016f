#!/bin/sh
# Time the installed hook command as a whole process, next to python3's
# start-up, on this machine. See docs/performance.md for the method.
#
#   benches/hook-latency.sh [--rounds N]
#
# Builds coffer with the release profile (through `cargo bench`), applies a
# desired file with one file source in a throwaway home, reads the command
# `apply` wrote into ~/.claude/settings.json, and runs it N times from
# spawn to exit, interleaved with /bin/true and python3. Prints a Markdown
# table of medians and percentiles.
set -eu
cd "$(dirname "$0")/.."
command -v python3 >/dev/null || { echo "python3 is needed for the comparison" >&2; exit 1; }
echo "machine: $(nproc) cores, $(uname -sr), $(python3 --version 2>&1)"
exec cargo bench --quiet --bench hook_latency -- "$@"
