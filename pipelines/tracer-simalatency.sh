#!/usr/bin/env bash
# The simalatency tracer from the command line: the two launch lines of its
# documentation (gst/gstsimalatencytracer.c, verbatim), checked: 8 records
# per converter and none for other elements; one summary line per
# converter; no summary without the option; unknown or malformed options
# warned about, never fatal.
. "$(dirname "$0")/env.sh"
cd "$out"
export GST_DEBUG_NO_COLOR=1

records() {
GST_TRACERS=simalatency GST_DEBUG=GST_TRACER:7 gst-launch-1.0 -q \
  simatensorsrc num-buffers=8 ! \
  application/vnd.simaai.tensor,dtype=float32,shape="<64,64,3>" ! \
  simaquanttess multiplier=64 device=emulator ! \
  simadetessdequant scale=0.015625 device=emulator ! fakesink
}

summary() {
GST_TRACERS="simalatency(summary=true)" gst-launch-1.0 -q \
  simatensorsrc num-buffers=8 ! \
  application/vnd.simaai.tensor,dtype=float32,shape="<64,64,3>" ! \
  simaquanttess multiplier=64 device=emulator ! \
  simadetessdequant scale=0.015625 device=emulator ! fakesink
}

fail() { echo "tracer-simalatency: $*" >&2; exit 1; }

records 2>trace.log
for e in simaquanttess0 simadetessdequant0; do
  n=$(grep -c "simalatency, ts=(guint64)[0-9]*, element=(string)$e," trace.log || true)
  [ "$n" = 8 ] || fail "$n records for $e, expected 8"
done
n=$(grep -c "simalatency, ts=(guint64)[0-9]" trace.log || true)
[ "$n" = 16 ] || fail "$n records in all, expected 16"
grep -m1 "simalatency, ts=(guint64)[0-9]" trace.log | sed 's/^.*simalatency, /record: simalatency, /'

summary >summary.txt
cat summary.txt
grep -Eq "^simalatency: element=simaquanttess0 op=QuantTess backend=ev74 buffers=8 latency-us: mean=[0-9.]+ p50=[0-9.]+ p99=[0-9.]+ max=[0-9.]+ process-us: mean=[0-9.]+ copies=0$" summary.txt \
  || fail "no QuantTess summary line"
grep -Eq "^simalatency: element=simadetessdequant0 op=DetessDequant backend=ev74 buffers=8 " summary.txt \
  || fail "no DetessDequant summary line"
[ "$(grep -c '^simalatency:' summary.txt)" = 2 ] || fail "not 2 summary lines"

# the options: none, an unknown one next to summary, a malformed value
launch() {
  gst-launch-1.0 -q simatensorsrc num-buffers=2 ! \
    application/vnd.simaai.tensor,dtype=float32,shape="<8,16,3>" ! \
    simaquanttess multiplier=64 backend=a65 ! fakesink
}
GST_TRACERS=simalatency launch >plain.txt
! grep -q "^simalatency:" plain.txt || fail "summary printed without summary=true"
GST_TRACERS="simalatency(colour=blue,summary=true)" GST_DEBUG=simalatency:2 \
  launch >unknown.txt 2>unknown.log
grep -q "ignoring unknown option 'colour'" unknown.log || fail "unknown option not warned"
grep -q "^simalatency: element=simaquanttess0 .* buffers=2 " unknown.txt \
  || fail "summary=true lost next to an unknown option"
GST_TRACERS="simalatency(summary=maybe)" GST_DEBUG=simalatency:2 \
  launch >bad.txt 2>bad.log
grep -q "is not a boolean" bad.log || fail "malformed summary value not warned"
! grep -q "^simalatency:" bad.txt || fail "summary printed for summary=maybe"
echo "simalatency: records, summary and options as documented"
