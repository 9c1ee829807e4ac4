#!/usr/bin/env bash
# The whole test suite on a fresh Debian 12 machine: installs what is
# missing, builds with warnings as errors, runs every test, then builds again
# with AddressSanitizer + UndefinedBehaviorSanitizer and runs every test
# again, then runs the threaded EV74 tests under ThreadSanitizer, then
# cross-builds the kernel core for AArch64 and runs its suite under
# qemu-aarch64 (the NEON leaves), then builds everything but the plugin for
# 32-bit x86 (i686: the EV74 is a 32-bit DSP) and runs its whole suite
# there, the firmware stack check included. The exit status is the truth.
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

# 0 when this kernel runs an i686 program (the cross compiler's smallest).
i686_runs_natively() {
  local dir
  dir=$(mktemp -d)
  printf 'int main (void) { return 0; }\n' >"$dir/probe.c"
  i686-linux-gnu-gcc "$dir/probe.c" -o "$dir/probe" \
    && "$dir/probe" 2>/dev/null
  local rc=$?
  rm -rf "$dir"
  return $rc
}

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
  # The sweeps report their case counts as TAP points, the firmware stack
  # check its figures against the budget; show them.
  grep -hE '^ok [0-9]+ - .*(cases|mismatches|stack [0-9]+ \+ scratch)' \
    "$dir/meson-logs/testlog.txt" \
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

# The EV74 is a 32-bit DSP: the firmware, the emulator, the device layer and
# the kernel core built for i686 (Debian's gcc-i686-linux-gnu; 4-byte
# pointers and size_t, 64-bit integers 4-byte aligned in structs), so the
# wire-format asserts compile for a 32-bit ABI and the codec, device,
# differential, firmware, fuzz-corpus and kernel tests run there natively.
# It also builds the firmware image with -fstack-usage -fcallgraph-info=su
# and checks every worker's deepest call chain plus its scratch against the
# local memory budget (tests/firmware, tools/check-fw-stack.py): 32-bit
# frames are the closer figure for the device. docs/ev74.md, "32-bit build"
# and "Stack budget".
# Some virtual machines' kernels refuse 32-bit x86 programs ("Exec format
# error": no IA-32 syscall entry); there the suite runs under qemu-i386
# (tools/cross/i686-qemu.ini, layered on the cross file), in a build tree of
# its own so that neither configuration is mixed into the other.
i686_dir=$root/i686
i686_cross=(--cross-file "$top/tools/cross/i686-linux-gnu.ini")
i686_test=()
if ! i686_runs_natively; then
  echo "== i686: this kernel does not run 32-bit x86 programs; qemu-i386 runs the suite"
  i686_dir=$root/i686-qemu
  i686_cross+=(--cross-file "$top/tools/cross/i686-qemu.ini")
  i686_test=(--timeout-multiplier 4)
fi
if [ ! -f "$i686_dir/build.ninja" ]; then  # cross files are set up once
  meson setup "$i686_dir" "$top" --werror -Dbuildtype=debugoptimized \
    -Dgstreamer=false -Dfirmware_stack_check=true "${i686_cross[@]}" \
    >/dev/null
else
  meson configure "$i686_dir" -Dfirmware_stack_check=true >/dev/null
fi
run_suite "$i686_dir" "i686" "${i686_test[@]}"

echo "== all suites passed"
