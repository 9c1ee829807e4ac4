#!/usr/bin/env bash
# The launch lines of simadetessdequant's documentation
# (gst/gstsimadetessdequant.c), verbatim (tools/check-doc-launch-lines.py).
# The first leaves the device to SIMA_EV74_DEVICE: the emulator here.
. "$(dirname "$0")/env.sh"
cd "$out"
export SIMA_EV74_DEVICE=${SIMA_EV74_DEVICE:-emulator}
gst-launch-1.0 simatensorsrc num-buffers=30 ! \
  application/vnd.simaai.tensor,dtype=float32,shape="<224,224,3>" ! \
  simaquanttess multiplier=127 ! simadetessdequant scale=0.007874016 ! \
  fakesink
gst-launch-1.0 simatensorsrc num-buffers=5 ! \
  application/vnd.simaai.tensor,dtype=float32,shape="<8,8,3>" ! \
  simaquanttess multiplier=127 backend=a65 ! \
  simadetessdequant scale=0.007874016 backend=a65 ! \
  application/vnd.simaai.tensor,dtype=float32,layout=strided,strides="<256,16,4>" ! \
  fakesink
gst-launch-1.0 simatensorsrc num-buffers=3 pattern=random min=-6 max=6 ! \
  application/vnd.simaai.tensor,dtype=float32,shape="<80,80,64>" ! \
  simaquanttess multiplier=11.328456438342892 zero-point=-61 tile-shape="<1,1,80,64>" ! \
  simadetessdequant scale-convention=divide scale=11.328456438342892 zero-point=-61 ! \
  fakesink
