#!/usr/bin/env bash
# The whole test suite on a fresh Debian 12 machine: installs what is
# missing, builds with warnings as errors, runs every test, then builds again
# with AddressSanitizer + UndefinedBehaviorSanitizer and runs every test
# again, then runs the threaded EV74 tests under ThreadSanitizer, then
# cross-builds the kernel core for AArch64 and runs its suite under
# qemu-aarch64 (the NEON leaves). The exit status is the truth.
#
#   tools/test.sh            both builds
#   SIMA_BUILD_ROOT=dir      where the build trees go (default: _build)
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=tools/bootstrap.sh
. "$top/tools/bootstrap.sh"
sima_bootstrap

root=${SIMA_BUILD_ROOT:-$top/_build}
jobs=$(nproc 2>/dev/null || echo 2)

configure() {  # dir, extra meson options...
  local dir=$1; shift
  # relocatable .pc files (a project default, which only a new build dir
  # takes on its own); tests/install checks them
  set -- -Dpkgconfig.relocatable=true "$@"
  if [ -f "$dir/build.ninja" ]; then
    meson configure "$dir" "$@" >/dev/null
  else
    meson setup "$dir" "$top" --werror "$@" >/dev/null
  fi
}

run_suite() {  # dir, label, extra meson test arguments...
  local dir=$1 label=$2
  shift 2
  echo "== $label: build"
  ninja -C "$dir" -j "$jobs"
  echo "== $label: test"
  if ! meson test -C "$dir" --num-processes "$jobs" --print-errorlogs "$@"; then
    echo "== $label: FAILED (log: $dir/meson-logs/testlog.txt)"
    return 1
  fi
  # The sweeps report their case counts as TAP points; show them.
  grep -hE '^ok [0-9]+ - .*(cases|mismatches)' "$dir/meson-logs/testlog.txt" \
    | sed "s/^/   [$label] /" || true
}

configure "$root/release" -Dbuildtype=debugoptimized
run_suite "$root/release" "release"

# halt_on_error makes every sanitizer report a test failure.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
configure "$root/sanitize" -Dbuildtype=debugoptimized \
  -Db_sanitize=address,undefined -Db_lundef=false
run_suite "$root/sanitize" "asan+ubsan"

# The threaded parts (EV74 device, emulator workers) once more under
# ThreadSanitizer.
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1}
configure "$root/tsan" -Dbuildtype=debugoptimized -Db_sanitize=thread \
  -Db_lundef=false
run_suite "$root/tsan" "tsan" --suite ev74

# The target CPU: the kernel core cross-built for AArch64 and its suite
# (NEON leaves and scalar, each against the oracle) under qemu-aarch64.
if [ ! -f "$root/aarch64/build.ninja" ]; then  # a cross file is set up once
  meson setup "$root/aarch64" "$top" --werror -Dbuildtype=debugoptimized \
    -Dgstreamer=false --cross-file "$top/tools/cross/aarch64-linux-gnu.ini" \
    >/dev/null
fi
run_suite "$root/aarch64" "aarch64 (qemu)" --suite kernels --timeout-multiplier 4

echo "== all suites passed"
