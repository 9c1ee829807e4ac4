#!/usr/bin/env bash
# The main pipeline, on the EV74 (its emulator here): 30 RGB tensors with
# values in [-1, 1] are quantized to INT8 H8/W16/C16 pad16 MLA tiles
# (multiplier 127) and dequantized back to FP32 (scale 1/127). Every value
# must come back within half a quantization step.
. "$(dirname "$0")/env.sh"
gst-launch-1.0 -q \
  simatensorsrc pattern=random seed=1 num-buffers=30 ! \
  "application/vnd.simaai.tensor,dtype=float32,shape=(int)<224,224,3>" ! \
  tee name=t \
  t. ! queue ! filesink location="$out/in.raw" \
  t. ! queue ! simaquanttess multiplier=127 device=emulator:workers=2 ! \
    simadetessdequant scale=0.007874016 device=emulator:workers=2 ! \
    filesink location="$out/out.raw"
echo "roundtrip on the EV74 emulator: 30 buffers of 224x224x3 float32"
"$CHECK" roundtrip --step 0.007874016 "$out/in.raw" "$out/out.raw"
