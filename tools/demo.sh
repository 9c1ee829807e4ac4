#!/usr/bin/env bash
# The project's main job on a fresh Debian 12 machine: installs what is
# missing, builds, and quantizes an RGB 224x224x3 FP32 image to INT8
# H8/W16/C16 pad16 MLA tiles on the A65, checking the result.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=tools/bootstrap.sh
. "$top/tools/bootstrap.sh"
sima_bootstrap

dir=${SIMA_BUILD_ROOT:-$top/_build}/release
[ -f "$dir/build.ninja" ] || meson setup "$dir" "$top" >/dev/null
ninja -C "$dir" tools/sima-quanttess-demo >/dev/null
exec "$dir/tools/sima-quanttess-demo" "$@"
