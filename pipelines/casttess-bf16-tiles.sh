#!/usr/bin/env bash
# CastTess on the EV74 emulator: FP32 tensors (including NaN, infinities,
# signed zeros and subnormals) become BF16 byte-plane tiles; every output
# byte must equal the core's.
. "$(dirname "$0")/env.sh"
in_caps="application/vnd.simaai.tensor,dtype=float32,shape=(int)<2,20,40,19>,layout=contiguous"
out_caps="application/vnd.simaai.tensor,dtype=bfloat16,shape=(int)<2,20,40,19>,layout=mla-tiled,tile-axes=(int)<-1,1,2,3>,tile-shape=(int)<1,8,16,16>,channels=pad16"
gst-launch-1.0 -q \
  simatensorsrc pattern=special num-buffers=4 ! "$in_caps" ! tee name=t \
  t. ! queue ! filesink location="$out/in.raw" \
  t. ! queue ! simacasttess device=emulator ! "$out_caps" ! \
    filesink location="$out/out.raw"
echo "casttess on the EV74 emulator: 4 buffers, special values, C19 in C16 tiles"
"$CHECK" casttess --in-caps "$in_caps" --out-caps "$out_caps" \
  "$out/in.raw" "$out/out.raw"
