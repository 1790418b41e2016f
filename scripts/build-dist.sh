#!/bin/sh
# Build the coffer binary we ship and print its path (the last line on
# stdout; cargo's output goes to stderr).
#
#   scripts/build-dist.sh
#
# On Linux it is linked statically against musl: a glibc process on the
# 2-core VM this is measured on spends about 0.8 ms of CPU before main()
# (its start-up asks the CPU for its cache sizes with cpuid, which traps to
# the hypervisor), and the hook pays that on every session start. The
# static musl build runs the hook in about 0.9 ms where /bin/true takes
# 1.2–1.5 ms; see docs/performance.md, "The shipped binary". It is
# position-independent, so ASLR is kept. The musl target is added through
# rustup when missing; if that fails (no network), the build falls back to
# the host's C library and says so. Elsewhere it is the host target with
# the same profile.
set -eu
cd "$(dirname "$0")/.."
target=
if [ "$(uname -s)" = Linux ]; then
    target=$(uname -m)-unknown-linux-musl
    if command -v rustup >/dev/null 2>&1 &&
        ! rustup target list --installed | grep -qx "$target"; then
        rustup target add "$target" >&2 || {
            echo "build-dist: warning: could not add the $target target; building for the host's C library instead (slower to start)" >&2
            target=
        }
    fi
fi
cargo build --profile dist --locked --bin coffer ${target:+--target "$target"} >&2
echo "$(pwd)/target/${target:+$target/}dist/coffer"
