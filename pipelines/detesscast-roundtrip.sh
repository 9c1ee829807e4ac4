#!/usr/bin/env bash
# simacasttess then simadetesscast, on the A65 and on the EV74 emulator,
# plain and cblock tiles: BF16 tensors come back bit for bit (special
# values, NaN payloads included: cmp), FP32 tensors as the documented rule
# (CastTess's FP32 -> BF16, then the BF16 bits << 16; every byte as the
# core, and the tiles too).
. "$(dirname "$0")/env.sh"
bf="application/vnd.simaai.tensor,dtype=bfloat16,shape=(int)<28,56,40>,layout=contiguous"
f32="application/vnd.simaai.tensor,dtype=float32,shape=(int)<28,56,40>,layout=contiguous"
for backend in backend=a65 device=emulator:workers=2; do
  for cb in false true; do
    tiles="application/vnd.simaai.tensor,dtype=bfloat16,shape=(int)<28,56,40>,layout=mla-tiled,tile-axes=(int)<-1,0,1,2>,tile-shape=(int)<1,4,8,32>,channels=pad16,cblock=$cb"
    gst-launch-1.0 -q simatensorsrc pattern=special num-buffers=4 ! "$bf" ! tee name=t \
      t. ! queue ! filesink location="$out/in.raw" \
      t. ! queue ! simacasttess $backend ! "$tiles" ! simadetesscast $backend ! "$bf" ! \
        filesink location="$out/out.raw"
    cmp "$out/in.raw" "$out/out.raw"
    echo "BF16 -> tiles (cblock=$cb) -> BF16, $backend: $(stat -c %s "$out/in.raw") bytes bit-identical"
    gst-launch-1.0 -q simatensorsrc pattern=random seed=4 num-buffers=4 ! "$f32" ! tee name=t \
      t. ! queue ! filesink location="$out/in.raw" \
      t. ! queue ! simacasttess $backend ! "$tiles" ! tee name=u \
        u. ! queue ! filesink location="$out/tiles.raw" \
        u. ! queue ! simadetesscast $backend ! "$f32" ! filesink location="$out/out.raw"
    echo "FP32 -> tiles (cblock=$cb) -> FP32, $backend:"
    "$CHECK" casttess --in-caps "$f32" --out-caps "$tiles" "$out/in.raw" "$out/tiles.raw"
    "$CHECK" detesscast --in-caps "$tiles" --out-caps "$f32" "$out/tiles.raw" "$out/out.raw"
  done
done
