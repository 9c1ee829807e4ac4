#!/usr/bin/env bash
# The A65 benchmark: installs what is missing (XNNPACK included), builds
# with optimisation in _build/bench and runs sima-kernels-bench. Arguments
# go to the benchmark (--quick, or a case-name substring). The figures are
# ratios from one run; docs/performance.md says how to read them.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=tools/bootstrap.sh
. "$top/tools/bootstrap.sh"
sima_bootstrap

dir=${SIMA_BUILD_ROOT:-$top/_build}/bench
if [ ! -f "$dir/build.ninja" ]; then
  meson setup "$dir" "$top" --buildtype=release -Dtests=false >/dev/null
fi
ninja -C "$dir" bench/sima-kernels-bench >/dev/null
# the benchmark prints the CPU model, cores and ISA it read itself
"$dir/bench/sima-kernels-bench" "$@"
