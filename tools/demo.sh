#!/usr/bin/env bash
# The project's main job on a fresh Debian 12 machine: installs what is
# missing, builds, and runs the main pipeline on the EV74 (its emulator):
#   simatensorsrc -> simaquanttess -> simadetessdequant -> file
# then checks that every value came back within half a quantization step.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=tools/bootstrap.sh
. "$top/tools/bootstrap.sh"
sima_bootstrap

dir=${SIMA_BUILD_ROOT:-$top/_build}/release
[ -f "$dir/build.ninja" ] || meson setup "$dir" "$top" >/dev/null
ninja -C "$dir" >/dev/null
# The same pipeline as one line that can be pasted into a shell (caps in
# quotes: <...> would otherwise be a redirection).
echo "To run the main pipeline yourself:"
echo "  export GST_PLUGIN_PATH=$dir/gst"
echo "  gst-launch-1.0 simatensorsrc pattern=random num-buffers=30 !" \
  "'application/vnd.simaai.tensor,dtype=float32,shape=(int)<224,224,3>' !" \
  "simaquanttess multiplier=127 device=emulator:workers=2 !" \
  "simadetessdequant scale=0.007874016 device=emulator:workers=2 ! fakesink"
echo
SIMA_BUILD_DIR="$dir" exec bash "$top/pipelines/roundtrip-ev74.sh"
