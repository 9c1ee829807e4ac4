#!/usr/bin/env bash
# QuantTess alone on the EV74 emulator with 4 workers: BF16 input, rounding
# toward negative, a zero point; every output byte (values, zero-point
# padding, gaps) must equal the core's.
. "$(dirname "$0")/env.sh"
in_caps="application/vnd.simaai.tensor,dtype=bfloat16,shape=(int)<3,33,65,3>,layout=contiguous"
out_caps="application/vnd.simaai.tensor,dtype=int8,shape=(int)<3,33,65,3>,layout=mla-tiled,tile-axes=(int)<-1,1,2,3>,tile-shape=(int)<1,8,16,16>,channels=pad16"
gst-launch-1.0 -q \
  simatensorsrc pattern=random seed=4 min=-2 max=2 num-buffers=6 ! \
  "$in_caps" ! tee name=t \
  t. ! queue ! filesink location="$out/in.raw" \
  t. ! queue ! simaquanttess multiplier=60 zero-point=5 \
      rounding=toward-negative device=emulator:workers=4 ! "$out_caps" ! \
    filesink location="$out/out.raw"
echo "quanttess on the EV74 emulator (4 workers): 6 buffers of 3x33x65x3 bfloat16"
"$CHECK" quanttess --in-caps "$in_caps" --out-caps "$out_caps" \
  --multiplier 60 --zero-point 5 --rounding toward-negative \
  "$out/in.raw" "$out/out.raw"
