#!/usr/bin/env bash
# Soak: many buffers through simaquanttess -> simadetessdequant on the EV74
# emulator, with DMA-BUFs handed from element to element.
#
#   soak.sh leaks N     the GStreamer leaks tracer watches the whole run;
#                       at gst_deinit it must list 0 alive objects
#   soak.sh memcheck N  under valgrind memcheck: 0 errors, 0 bytes
#                       definitely lost
#
# Every buffer must reach the sink (counted from fakesink's messages).
set -euo pipefail
mode=$1
n=$2
. "$(dirname "$0")/../../pipelines/env.sh"
export GST_DEBUG_NO_COLOR=1

pipeline=(
  simatensorsrc pattern=random seed=9 num-buffers="$n" !
  "application/vnd.simaai.tensor,dtype=float32,shape=(int)<64,64,3>" !
  simaquanttess multiplier=127 device=emulator:workers=2 !
  simadetessdequant scale=0.007874016 device=emulator:workers=2 !
  fakesink silent=false
)
# gst-launch -v prints fakesink's last-message for every buffer
count_buffers() {
  local got
  got=$(grep -c 'last-message = chain' "$1" || true)
  if [ "$got" -ne "$n" ]; then
    echo "FAIL: $got of $n buffers reached the sink"
    tail -20 "$1"
    exit 1
  fi
}

case $mode in
  leaks)
    GST_TRACERS=leaks GST_DEBUG=leaks:7,GST_TRACER:7 \
      gst-launch-1.0 -v "${pipeline[@]}" >"$out/log" 2>&1
    count_buffers "$out/log"
    # the tracer's verdict at gst_deinit: one "listed N alive objects" line,
    # and an object-alive record for each of them
    listed=$(grep -o 'listed [0-9]* alive objects' "$out/log" || true)
    alive=$(grep -c 'object-alive, type-name=(string)[^%]' "$out/log" || true)
    echo "leaks tracer over $n buffers: ${listed:-no verdict}"
    if [ "$listed" != "listed 0 alive objects" ] || [ "$alive" -ne 0 ]; then
      grep 'object-alive, type-name=(string)[^%]' "$out/log" | head -20
      echo "FAIL: leaked objects (or the tracer did not run)"
      exit 1
    fi
    ;;
  memcheck)
    # load the registry outside valgrind; the run itself is what is checked
    gst-inspect-1.0 simaquanttess >/dev/null
    valgrind --leak-check=full --errors-for-leak-kinds=definite \
      --error-exitcode=99 --num-callers=30 --log-file="$out/valgrind" \
      gst-launch-1.0 -v "${pipeline[@]}" >"$out/log" 2>&1 || {
        echo "FAIL: valgrind or the pipeline failed (exit $?)"
        cat "$out/valgrind" | tail -60
        exit 1
      }
    count_buffers "$out/log"
    grep -E 'ERROR SUMMARY|definitely lost' "$out/valgrind" | sed 's/^==[0-9]*== //'
    grep -q 'ERROR SUMMARY: 0 errors' "$out/valgrind"
    grep -qE 'definitely lost: 0 bytes|no leaks are possible' "$out/valgrind"
    ;;
  *)
    echo "usage: soak.sh leaks|memcheck N" >&2
    exit 2
    ;;
esac
echo "soak ($mode): $n buffers, clean"
