#!/usr/bin/env bash
# Camera frames in: videotestsrc RGB 224x224 through simaquanttess with a
# SiMa-style preproc configuration (q_scale 255.0697 on pixels normalised
# to [0, 1], q_zp -128: multiplier = 255.0697 / 255 on the 8-bit values),
# then back through simadetessdequant, on the A65 and on the EV74
# emulator. The frame is read in place (channels in memory order: R, G, B
# for RGB); every tile byte and every output value must be the core's.
. "$(dirname "$0")/env.sh"
frame="video/x-raw,format=RGB,width=224,height=224,framerate=30/1"
tiles="application/vnd.simaai.tensor,dtype=int8,shape=(int)<224,224,3>,layout=mla-tiled,tile-axes=(int)<-1,0,1,2>,tile-shape=(int)<1,8,16,16>,channels=pad16"
dense="application/vnd.simaai.tensor,dtype=float32,shape=(int)<224,224,3>,layout=contiguous"
for backend in backend=a65 device=emulator:workers=2; do
  gst-launch-1.0 -q videotestsrc num-buffers=5 pattern=smpte ! "$frame" ! tee name=t \
    t. ! queue ! filesink location="$out/frames.raw" \
    t. ! queue ! simaquanttess multiplier=1.0002733 zero-point=-128 $backend ! "$tiles" ! tee name=u \
      u. ! queue ! filesink location="$out/tiles.raw" \
      u. ! queue ! simadetessdequant scale=0.99972677 zero-point=-128 $backend ! "$dense" ! \
        filesink location="$out/out.raw"
  echo "RGB 224x224 frames, SiMa preproc quantisation, $backend:"
  "$CHECK" quanttess --in-caps "$frame" --out-caps "$tiles" \
    --multiplier 1.0002733 --zero-point -128 "$out/frames.raw" "$out/tiles.raw"
  "$CHECK" detessdequant --in-caps "$tiles" --out-caps "$dense" \
    --scale 0.99972677 --zero-point -128 "$out/tiles.raw" "$out/out.raw"
done
