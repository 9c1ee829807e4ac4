#!/usr/bin/env bash
# The launch line of simatensorsrc's documentation (gst/gstsimatensorsrc.c),
# verbatim (tools/check-doc-launch-lines.py).
. "$(dirname "$0")/env.sh"
cd "$out"
gst-launch-1.0 simatensorsrc pattern=random seed=7 min=-2 max=2 \
  num-buffers=10 ! \
  application/vnd.simaai.tensor,dtype=float16,shape="<2,64,64,8>" ! \
  fakesink
