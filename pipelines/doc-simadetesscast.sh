#!/usr/bin/env bash
# The launch lines of simadetesscast's documentation
# (gst/gstsimadetesscast.c), verbatim (tools/check-doc-launch-lines.py).
# The first leaves the device to SIMA_EV74_DEVICE: the emulator here.
. "$(dirname "$0")/env.sh"
cd "$out"
export SIMA_EV74_DEVICE=${SIMA_EV74_DEVICE:-emulator}
gst-launch-1.0 simatensorsrc num-buffers=30 ! \
  application/vnd.simaai.tensor,dtype=bfloat16,shape="<224,224,3>" ! \
  simacasttess ! simadetesscast ! \
  application/vnd.simaai.tensor,dtype=bfloat16 ! fakesink
gst-launch-1.0 simatensorsrc num-buffers=5 ! \
  application/vnd.simaai.tensor,dtype=float32,shape="<8,8,33>" ! \
  simacasttess tile-shape="<1,4,8,32>" cblock=true backend=a65 ! \
  simadetesscast backend=a65 ! fakesink
