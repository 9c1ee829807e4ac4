#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The simakernels elements from Python (PyGObject).

appsrc (float32 tensors from Python memory) -> simaquanttess ->
simadetessdequant -> appsink. Checks every output against its input (one
quantization step) and prints DetessDequant's timing meta per buffer.
Exit status 0 when every buffer came back right with its timing.

    sima_app.py [--buffers N] [--backend ev74|a65] [--device SPEC]
"""
import argparse
import array
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstApp", "1.0")
from gi.repository import Gst, GstApp  # noqa: E402  (after require_version)

H, W, C = 48, 64, 3
MULTIPLIER = 64.0


def tensor(frame):
    """A ramp over [-1, 1], different per frame."""
    return array.array(
        "f", (((i * 7 + frame * 13) % 2001) / 1000.0 - 1.0 for i in range(H * W * C)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--buffers", type=int, default=5)
    parser.add_argument("--backend", default="ev74")
    parser.add_argument("--device", default=None)
    args = parser.parse_args()

    Gst.init(None)
    device = f" device={args.device}" if args.device else ""
    pipeline = Gst.parse_launch(
        "appsrc name=src format=time caps=application/vnd.simaai.tensor,"
        f"dtype=float32,shape=(int)<{H},{W},{C}>,layout=contiguous ! "
        f"simaquanttess multiplier={MULTIPLIER} backend={args.backend}{device} ! "
        f"simadetessdequant scale={1 / MULTIPLIER} backend={args.backend}{device} ! "
        "appsink name=sink sync=false")
    src = pipeline.get_by_name("src")
    sink = pipeline.get_by_name("sink")
    if pipeline.set_state(Gst.State.PLAYING) == Gst.StateChangeReturn.FAILURE:
        print("the pipeline does not start", file=sys.stderr)
        return 1

    status = 0
    for frame in range(args.buffers):
        sent = tensor(frame)
        buf = Gst.Buffer.new_wrapped(sent.tobytes())
        buf.pts = frame * Gst.SECOND // 30
        if src.emit("push-buffer", buf) != Gst.FlowReturn.OK:
            status = 1
            break
        sample = sink.emit("try-pull-sample", 10 * Gst.SECOND)
        if sample is None:
            print(f"no output for frame {frame}", file=sys.stderr)
            status = 1
            break
        out = sample.get_buffer()
        got = array.array("f", out.extract_dup(0, out.get_size()))
        if len(got) != len(sent):
            print(f"frame {frame}: {len(got)} values, sent {len(sent)}", file=sys.stderr)
            status = 1
            continue
        worst = max(abs(a - b) for a, b in zip(got, sent))
        if worst > 0.5 / MULTIPLIER + 1e-6:
            print(f"frame {frame}: off by {worst}", file=sys.stderr)
            status = 1
        meta = out.get_custom_meta("GstSimaTimingMeta")
        if meta is None:
            print(f"frame {frame} has no timing meta", file=sys.stderr)
            status = 1
            continue
        timing = meta.get_structure()
        t = {name: timing.get_value(name) for name in (
            "element", "op", "backend", "process-ns", "cpu-ns", "bytes-in",
            "bytes-out", "copies")}
        print(f"buffer {frame}: {t['element']} {t['op']} on {t['backend']}: "
              f"process {t['process-ns'] / 1e3:.1f} us, cpu {t['cpu-ns'] / 1e3:.1f} us, "
              f"{t['bytes-in']} -> {t['bytes-out']} bytes, {t['copies']} copies")
        if t["op"] != "DetessDequant" or not t["process-ns"] > 0:
            status = 1

    src.emit("end-of-stream")
    msg = pipeline.get_bus().pop_filtered(Gst.MessageType.ERROR)
    if msg is not None:
        print(f"error: {msg.parse_error()[0].message}", file=sys.stderr)
        status = 1
    pipeline.set_state(Gst.State.NULL)
    if status == 0:
        print(f"{args.buffers} tensors round-tripped through QuantTess and DetessDequant")
    return status


if __name__ == "__main__":
    sys.exit(main())
