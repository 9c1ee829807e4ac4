#!/usr/bin/env bash
# YOLOv8n's MLA output as one tensor set: six INT8 heads (pad16, one image
# row per tile, back to back in 1,209,600 bytes, ../shared/INTEROP.md
# section 2) of random codes through simadetessdequant with SiMa's own
# dq_scale and dq_zp per head (scale-convention=divide), on the A65 and on
# the EV74 emulator (one job per buffer), into FP32 and BF16. Every value
# of every head must be (q - dq_zp) / dq_scale, computed by the checker on
# its own.
. "$(dirname "$0")/env.sh"
heads="application/vnd.simaai.tensor,representation=tensor-set,dtype=int8,layout=mla-tiled,channels=pad16,tile-axes=(int)<-1,0,1,2>,shape=(int)<<80,80,64>,<40,40,64>,<20,20,64>,<80,80,80>,<40,40,80>,<20,20,80>>,tile-shape=(int)<<1,1,80,64>,<1,1,40,64>,<1,1,20,64>,<1,1,80,80>,<1,1,40,80>,<1,1,20,80>>,offsets=(gint64)<0,409600,512000,537600,1049600,1177600>"
scales="11.328456438342892,13.655735144659944,14.041570531577957,9.636191223407769,6.634204286335957,5.471951716200586"
zps="-61,-56,-43,127,117,113"
head -c $((1209600 * 3)) /dev/urandom > "$out/heads.raw"
for backend in backend=a65 device=emulator:workers=2; do
  for dtype in float32 bfloat16; do
    outcaps="application/vnd.simaai.tensor,representation=tensor-set,dtype=$dtype,layout=contiguous"
    gst-launch-1.0 -q filesrc location="$out/heads.raw" blocksize=1209600 ! \
      "$heads" ! \
      simadetessdequant scale-convention=divide scales="<$scales>" zero-points="<$zps>" $backend ! \
      "$outcaps" ! filesink location="$out/out.raw"
    echo "six YOLOv8n heads per buffer, $backend, $dtype:"
    "$CHECK" sima-dequant --in-caps "$heads" \
      --out-caps "$outcaps,shape=(int)<<80,80,64>,<40,40,64>,<20,20,64>,<80,80,80>,<40,40,80>,<20,20,80>>" \
      --dq-scales "$scales" --dq-zps "$zps" "$out/heads.raw" "$out/out.raw"
  done
done
# The same buffers announced as SiMa's legacy MLA caps (a filesrc and a
# capsfilter, as a SiMa pipeline gives them): the same bytes as above.
mla="application/vnd.simaai.tensor,format=(string)MLA,data_type=(string)<INT8,INT8,INT8,INT8,INT8,INT8>,width=(int)<80,40,20,80,40,20>,height=(int)<80,40,20,80,40,20>,depth=(int)<64,64,64,80,80,80>,slice_width=(int)<80,40,20,80,40,20>,slice_height=(int)<1,1,1,1,1,1>,slice_depth=(int)<64,64,64,80,80,80>"
for backend in backend=a65 device=emulator:workers=2; do
  gst-launch-1.0 -q filesrc location="$out/heads.raw" blocksize=1209600 ! \
    "$heads" ! \
    simadetessdequant scale-convention=divide scales="<$scales>" zero-points="<$zps>" $backend ! \
    "application/vnd.simaai.tensor,dtype=float32" ! filesink location="$out/ours.raw"
  gst-launch-1.0 -q filesrc location="$out/heads.raw" blocksize=1209600 ! \
    "$mla" ! \
    simadetessdequant scale-convention=divide scales="<$scales>" zero-points="<$zps>" $backend ! \
    filesink location="$out/theirs.raw"
  cmp "$out/ours.raw" "$out/theirs.raw"
  echo "the same heads as SiMa's MLA caps, $backend: $(stat -c %s "$out/theirs.raw") bytes, the same as with our caps"
done
