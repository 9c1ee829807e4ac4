# shellcheck shell=bash
# Sourced by every pipeline script: finds the plugin and the checker in a
# build tree (SIMA_BUILD_DIR, default _build/release next to this folder;
# an installed plugin works too), and a scratch folder for output files.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=${SIMA_BUILD_DIR:-$here/../_build/release}
if [ -d "$build/gst" ]; then
  export GST_PLUGIN_PATH_1_0="$build/gst${GST_PLUGIN_PATH_1_0:+:$GST_PLUGIN_PATH_1_0}"
fi
CHECK=${SIMA_TENSOR_CHECK:-$build/tools/sima-tensor-check}
[ -x "$CHECK" ] || CHECK=sima-tensor-check
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
