#!/usr/bin/env bash
# DetessDequant into a strided output on the A65: tiles from QuantTess are
# written to a pitched FP32 tensor (rows of 256 bytes, pixels of 16 bytes:
# room for an alpha channel the pipeline does not touch). Every element
# must equal the core's.
. "$(dirname "$0")/env.sh"
tiles="application/vnd.simaai.tensor,dtype=int8,shape=(int)<8,12,3>,layout=mla-tiled,tile-axes=(int)<-1,0,1,2>,tile-shape=(int)<1,8,16,16>,channels=pad16"
strided="application/vnd.simaai.tensor,dtype=float32,shape=(int)<8,12,3>,layout=strided,strides=(gint64)<256,16,4>"
gst-launch-1.0 -q \
  simatensorsrc pattern=random seed=9 num-buffers=5 ! \
  "application/vnd.simaai.tensor,dtype=float32,shape=(int)<8,12,3>" ! \
  simaquanttess multiplier=127 backend=a65 ! "$tiles" ! tee name=t \
  t. ! queue ! filesink location="$out/tiles.raw" \
  t. ! queue ! simadetessdequant scale=0.007874016 backend=a65 ! "$strided" ! \
    filesink location="$out/out.raw"
echo "detessdequant on the A65 into a pitched output: 5 buffers of 8x12x3"
"$CHECK" detessdequant --in-caps "$tiles" --out-caps "$strided" \
  --scale 0.007874016 "$out/tiles.raw" "$out/out.raw"
