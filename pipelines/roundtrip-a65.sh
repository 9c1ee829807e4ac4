#!/usr/bin/env bash
# A round trip on the A65 (backend=a65): a 1x56x56x64 feature map ramping
# over [-0.9, 0.9], quantized with multiplier 100 and zero point -3 into
# compact C16 tiles and dequantized back; every value within half a step.
. "$(dirname "$0")/env.sh"
gst-launch-1.0 -q \
  simatensorsrc pattern=ramp min=-0.9 max=0.9 num-buffers=10 ! \
  "application/vnd.simaai.tensor,dtype=float32,shape=(int)<1,56,56,64>" ! \
  tee name=t \
  t. ! queue ! filesink location="$out/in.raw" \
  t. ! queue ! simaquanttess multiplier=100 zero-point=-3 channels=compact \
      backend=a65 ! \
    simadetessdequant scale=0.01 zero-point=-3 backend=a65 ! \
    filesink location="$out/out.raw"
echo "roundtrip on the A65: 10 buffers of 1x56x56x64 float32, compact C16"
"$CHECK" roundtrip --step 0.01 "$out/in.raw" "$out/out.raw"
