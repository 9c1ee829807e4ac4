#!/usr/bin/env bash
# The launch line of simacasttess's documentation (gst/gstsimacasttess.c),
# verbatim (tools/check-doc-launch-lines.py).
. "$(dirname "$0")/env.sh"
cd "$out"
gst-launch-1.0 simatensorsrc num-buffers=10 ! \
  application/vnd.simaai.tensor,dtype=float32,shape="<224,224,3>" ! \
  simacasttess device=emulator ! fakesink
