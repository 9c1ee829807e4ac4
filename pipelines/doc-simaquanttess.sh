#!/usr/bin/env bash
# The launch lines of simaquanttess's documentation (the SECTION block in
# gst/gstsimaquanttess.c), verbatim: tools/check-doc-launch-lines.py keeps
# the two the same, and the pipelines suite runs them.
. "$(dirname "$0")/env.sh"
cd "$out"
gst-launch-1.0 simatensorsrc num-buffers=30 ! \
  application/vnd.simaai.tensor,dtype=float32,shape="<224,224,3>" ! \
  simaquanttess multiplier=127 device=emulator ! fakesink
gst-launch-1.0 simatensorsrc num-buffers=30 ! \
  application/vnd.simaai.tensor,dtype=float16,shape="<1,56,56,64>" ! \
  simaquanttess multiplier=64 zero-point=-3 rounding=toward-zero \
    channels=compact backend=a65 threads=2 ! fakesink
gst-launch-1.0 videotestsrc num-buffers=30 ! \
  video/x-raw,format=RGB,width=224,height=224 ! \
  simaquanttess multiplier=1.0002733 zero-point=-128 backend=a65 ! fakesink
