#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Stack + scratch of every EV74 firmware worker against the local budget.

    check-fw-stack.py LOCAL_MEMORY_EXE IMAGE_LIB BUILD_ROOT SOURCE...

IMAGE_LIB is the firmware image built with -fstack-usage
-fcallgraph-info=su (firmware/meson.build, option firmware_stack_check):
gcc leaves one .ci file (a VCG call graph with each function's frame in
bytes) per source in the library's private directory, IMAGE_LIB + ".p".
SOURCE... are the image's sources: the graphs of exactly these are read,
so stale objects do not count. BUILD_ROOT resolves the relative paths gcc
records. LOCAL_MEMORY_EXE (tests/firmware/fw_local_memory.c) prints the
budget (SIMA_EV74_LOCAL_BYTES), the two call reserves and each worker's
scratch slots, from the firmware's headers.

A worker is a function that allocates scratch (hal->ops->scratch). A frame
is what gcc reports for the function, its return address and the
arguments it pushes included; a chain's stack is the sum of its frames.
Checks (docs/ev74.md, "Stack budget"):
  1. each worker: the deepest chain from simafw_native_entry through it
     (every caller's frame on the way, the worker's, its deepest callees:
     the core's admission and geometry are in the image and count) plus its
     slots, each rounded up to SIMA_FW_SCRATCH_ALIGN as the HAL does;
  2. each function that runs workers one after another and gives their
     slots back with hal->ops->scratch_reset (the tensor-set loop): a
     worker's slots stay allocated after it returns, until the next reset,
     so its deepest chain that is not a worker's (decoding the next member)
     plus the largest of its workers' slots. Any other caller of a worker
     must call it as its last act (a call on a `return` line), and so must
     every caller on the way from the entry: the slots then end with the
     entry; anything else fails, as the script cannot tell when they do.
     A dispatcher (simafw_pack_run: a worker that hands some jobs to a
     specialised worker with `return w (...)` above its own first scratch
     call) is no such caller: none of its slots is live under w, and to
     its callers it is one worker with the larger of its and w's slots;
  3. the deepest chain anywhere (descriptor validation, no slots live).

Calls the graph cannot see into are charged a stated bound, never ignored:
  - an indirect call must be a HAL op (->ops->NAME on the source line gcc
    records for it): SIMA_EV74_HAL_CALL_STACK_BYTES, as on the device these
    are the platform's DMA functions, whose frames no host build measures
    (the host HAL's frames are the emulator's, not the device's);
  - runtime helpers (gcc's "<built-in>" nodes: 64-bit division on a 32-bit
    target; memcpy-like libc functions): SIMA_EV74_RUNTIME_CALL_STACK_BYTES.
Everything else fails loudly: a callee with no frame in the graph, a frame
of dynamic (unbounded) size, recursion, an indirect call that is not a HAL
op, a worker the graph has and LOCAL_MEMORY_EXE does not list (or the other
way round), scratch calls other than the ones it lists. Output: TAP.
"""

import os
import re
import subprocess
import sys

ENTRY = "simafw_native_entry"
INDIRECT = "__indirect_call"
# memcpy-like libc functions the freestanding image may call
# (tests/firmware/check_freestanding.sh allows the same)
LIBC = {"memcpy", "memset", "memmove", "memcmp", "strlen", "strcmp"}

NODE = re.compile(r'^node: \{ title: "([^"]*)" label: "([^"]*)"')
EDGE = re.compile(r'^edge: \{ sourcename: "([^"]*)" targetname: "([^"]*)"'
                  r'(?: label: "([^"]*)")?')
FRAME = re.compile(r"^(\d+) bytes \(([a-z,]+)\)$")
HAL_OP = re.compile(r"->\s*ops\s*->\s*(\w+)\s*\(")


class Fail(Exception):
    pass


def out(line):
    print(line, flush=True)


def resolve(path, root):
    return os.path.normpath(path if os.path.isabs(path)
                            else os.path.join(root, path))


def short(title):
    """A function's name: static functions are "path:name[.isra.0]"."""
    return title.rsplit(":", 1)[-1]


def read_local_memory(exe):
    text = subprocess.run([exe], check=True, capture_output=True,
                          text=True).stdout
    budget, reserve, slots = None, {}, {}
    for line in text.splitlines():
        f = line.split(maxsplit=3)
        if f[0] == "budget":
            budget = int(f[1])
        elif f[0] == "reserve":
            reserve[f[1]] = int(f[2])
        elif f[0] == "slot":
            slots.setdefault(f[1], []).append((int(f[2]), f[3]))
    if budget is None or set(reserve) != {"hal", "runtime"} or not slots:
        raise Fail("%s printed no budget, reserves or slots:\n%s" % (exe, text))
    return budget, reserve, slots


def read_graphs(lib, root, sources):
    """frames {title: (bytes, qualifier, where)}, edges {title: [(callee,
    call site)]} and the callees without a frame {title: label lines}."""
    pdir = lib + ".p"
    if not os.path.isdir(pdir):
        raise Fail("no object directory %s (was the image built?)" % pdir)
    wanted = {resolve(s, root) for s in sources}
    seen = set()
    frames, edges, external = {}, {}, {}
    for name in sorted(os.listdir(pdir)):
        if not name.endswith(".ci"):
            continue
        with open(os.path.join(pdir, name)) as f:
            lines = f.read().splitlines()
        m = re.match(r'^graph: \{ title: "([^"]*)"', lines[0] if lines else "")
        if not m:
            raise Fail("%s: not a -fcallgraph-info graph" % name)
        src = resolve(m.group(1), root)
        if src not in wanted:
            continue                # an object of a source no longer built
        seen.add(src)
        for line in lines[1:]:
            n = NODE.match(line)
            if n:
                title, label = n.group(1), n.group(2).split("\\n")
                fr = FRAME.match(label[-1]) if len(label) >= 3 else None
                if fr:
                    size, qual = int(fr.group(1)), fr.group(2)
                    old = frames.get(title)
                    # a header's static inline, out of line in several
                    # objects: the largest copy
                    if old is None or old[0] < size:
                        frames[title] = (size, qual, label[1])
                else:
                    external.setdefault(title, label)
                continue
            e = EDGE.match(line)
            if e:
                edges.setdefault(e.group(1), []).append(
                    (e.group(2), e.group(3) or ""))
    missing = sorted(wanted - seen)
    if missing:
        raise Fail("no call graph (.ci) in %s for: %s"
                   % (pdir, " ".join(missing)))
    for title, (size, qual, where) in frames.items():
        # "dynamic,bounded": pushes vary, the figure is their bound
        if qual not in ("static", "dynamic,bounded"):
            raise Fail("%s (%s): frame of %s size, no bound (%d bytes is "
                       "only its static part)" % (short(title), where, qual,
                                                   size))
    return frames, edges, external


class Source:
    """Source lines of call sites ("path:line:col", as gcc records them)."""

    def __init__(self, root):
        self.root, self.files = root, {}

    def line(self, site):
        m = re.match(r"^(.*):(\d+):\d+$", site)
        if not m:
            raise Fail("a call without a source location (%r)" % site)
        path = resolve(m.group(1), self.root)
        if path not in self.files:
            with open(path) as f:
                self.files[path] = f.read().splitlines()
        return path, int(m.group(2)), self.files[path][int(m.group(2)) - 1]

    def hal_args(self, site, op):
        """The arguments of the ->ops->op ( call at site, as text."""
        path, no, _ = self.line(site)
        text = "\n".join(self.files[path][no - 1:no + 5])
        m = re.search(r"->\s*ops\s*->\s*%s\s*\(" % op, text)
        args, depth, start, i = [], 1, m.end(), m.end()
        while depth:
            c = text[i]
            depth += {"(": 1, ")": -1}.get(c, 0)
            if (c == "," and depth == 1) or depth == 0:
                args.append(text[start:i])
                start = i + 1
            i += 1
        return args


def normal(expr):
    """An expression without casts, blanks and outer parentheses."""
    e = re.sub(r"\(\s*(?:const\s+)?(?:u?int\d+_t|unsigned long|size_t)\s*\)",
               "", expr)
    e = re.sub(r"\s+", "", e)
    while e.startswith("(") and e.endswith(")"):
        depth = 0
        for k, c in enumerate(e):
            depth += {"(": 1, ")": -1}.get(c, 0)
            if depth == 0 and k < len(e) - 1:
                return e        # "(a)*(b)": the parentheses are not outer
        e = e[1:-1]
    return e


def main(argv):
    if len(argv) < 5:
        raise Fail("usage: " + __doc__.strip().splitlines()[2].strip())
    exe, lib, root, sources = argv[1], argv[2], argv[3], argv[4:]
    budget, reserve, slots = read_local_memory(exe)
    frames, edges, external = read_graphs(lib, root, sources)
    src = Source(root)
    if ENTRY not in frames:
        raise Fail("%s is not in the call graph" % ENTRY)

    # What the entry reaches (the image links more of the core than the
    # firmware calls: the set admissions, for one, are the host's).
    reachable, todo = {ENTRY}, [ENTRY]
    while todo:
        for callee, _ in edges.get(todo.pop(), []):
            if callee in frames and callee not in reachable:
                reachable.add(callee)
                todo.append(callee)

    # Indirect calls: HAL ops only. Scratch and reset sites per function.
    scratch_sites, scratch_lines, resets = {}, {}, set()
    for caller in sorted(reachable):
        for callee, site in edges.get(caller, []):
            if callee != INDIRECT:
                continue
            _, _, text = src.line(site)
            m = HAL_OP.search(text)
            if not m:
                raise Fail("%s calls through a pointer at %s, which is not a "
                           "HAL op (->ops->...): nothing bounds its frame\n"
                           "%s" % (short(caller), site, text.strip()))
            if m.group(1) == "scratch":
                scratch_sites.setdefault(caller, []).append(
                    normal(src.hal_args(site, "scratch")[1]))
                scratch_lines.setdefault(caller, []).append(src.line(site)[:2])
            elif m.group(1) == "scratch_reset":
                resets.add(caller)

    def cost(callee, caller):
        """A call's stack where the graph has no frame: its reserve."""
        if callee == INDIRECT:
            return reserve["hal"]
        label = external.get(callee, [])
        if short(callee) in LIBC or (len(label) > 1
                                     and label[1] == "<built-in>"):
            return reserve["runtime"]
        raise Fail("%s calls %s, whose frame is unknown (not in the image: "
                   "add its source to the image, or state a bound)"
                   % (short(caller), short(callee)))

    # The deepest chain below each function (memoised; recursion fails).
    deep, best, state = {}, {}, {}

    def walk(f, path):
        if state.get(f) == "done":
            return deep[f]
        if state.get(f) == "open":
            cyc = path[path.index(f):] + [f]
            raise Fail("recursion, no static bound: "
                       + " -> ".join(short(c) for c in cyc))
        state[f] = "open"
        top, pick = 0, None
        for callee, _ in edges.get(f, []):
            c = walk(callee, path + [f]) if callee in frames \
                else cost(callee, f)
            if c > top:
                top, pick = c, callee
        deep[f], best[f], state[f] = frames[f][0] + top, pick, "done"
        return deep[f]

    walk(ENTRY, [])

    def step(f):
        if f in frames:
            return "%s %d" % (short(f), frames[f][0])
        return "[%s %d]" % ("HAL op" if f == INDIRECT else short(f),
                            cost(f, None))

    def chain_below(f):
        seq = []
        while f is not None:
            seq.append(step(f))
            f = best.get(f) if f in frames else None
        return seq

    reach = {}

    def reaches(f, target):
        if (f, target) not in reach:
            reach[(f, target)] = f == target or any(
                c in frames and reaches(c, target)
                for c, _ in edges.get(f, []))
        return reach[(f, target)]

    def prefix(target):
        """The deepest way from the entry down to target, target excluded:
        (bytes, [steps], [(caller, callee) links])."""
        memo = {}

        def go(f):
            if f == target:
                return 0, [], []
            if f not in memo:
                top = None
                for c, _ in edges.get(f, []):
                    if c in frames and reaches(c, target):
                        b, s, l = go(c)
                        if top is None or b > top[0]:
                            top = (b, s, [(f, c)] + l)
                memo[f] = (frames[f][0] + top[0], [step(f)] + top[1], top[2])
            return memo[f]
        return go(ENTRY)

    def all_links_to(target):
        """Every (caller, callee) link on any way from the entry to target."""
        return {(f, c) for f in reachable for c, _ in edges.get(f, [])
                if c in frames and reaches(c, target) and reaches(ENTRY, f)}

    def tail(caller, callee):
        """Every call of callee in caller is on a `return` line."""
        sites = [s for c, s in edges.get(caller, []) if c == callee]
        return all(re.search(r"\breturn\b", src.line(s)[2]) for s in sites)

    # The workers: the graph's and fw_local_memory.c's must agree.
    graph_workers = {short(w): w for w in scratch_sites}
    for w in sorted(set(graph_workers) | set(slots)):
        if w not in slots:
            raise Fail("%s allocates scratch (->ops->scratch) but "
                       "fw_local_memory.c lists no slots for it" % w)
        if w not in graph_workers:
            raise Fail("fw_local_memory.c lists slots for %s, which makes no "
                       "scratch call the entry reaches" % w)
        listed = sorted(normal(e) for _, e in slots[w])
        made = sorted(scratch_sites[graph_workers[w]])
        if listed != made:
            raise Fail("%s's scratch calls (%s) differ from the slots "
                       "fw_local_memory.c lists (%s)"
                       % (w, ", ".join(made), ", ".join(listed)))
    scratch = {graph_workers[w]: sum(b for b, _ in s)
               for w, s in slots.items()}

    # Dispatchers: a worker whose every call of another worker is a tail
    # call (on a `return` line) above its own first scratch call, in the
    # same file: it hands the whole run over before taking a slot, so none
    # of its slots is live under the callee, and it returns when the callee
    # does. Rule 1 still charges its own row with its deepest callee chain
    # (conservative); to its callers it is one worker holding the largest
    # of its own and its callees' slots, not a caller of workers (rule 2).
    def dispatches(f):
        sites = [site for c, site in edges.get(f, []) if c in scratch]
        if f not in scratch or not sites or not all(
                tail(f, c) for c, _ in edges[f] if c in scratch):
            return False
        return all(src.line(site)[0] == path and src.line(site)[1] < no
                   for site in sites for path, no in scratch_lines[f])

    dispatchers = {f for f in scratch if dispatches(f)}
    for f in sorted(dispatchers, key=short):
        scratch[f] = max([scratch[f]] + [scratch[c] for c, _ in edges[f]
                                         if c in scratch])

    rows = []       # (label, stack, scratch, chain, note)
    # 1. each worker: its deepest chain from the entry, plus its slots
    for w in sorted(scratch, key=short):
        b, steps, _ = prefix(w)
        rows.append((short(w), b + deep[w], scratch[w],
                     steps + chain_below(w),
                     "slots: " + ", ".join("%s = %d" % (e, n)
                                           for n, e in slots[short(w)])))

    # 2. slots held after a worker returns
    callers = sorted({f for f in reachable for c, _ in edges.get(f, [])
                      if c in scratch and f not in dispatchers})
    for f in callers:
        runs = sorted({c for c, _ in edges[f] if c in scratch}, key=short)
        links = all_links_to(f)
        if not all(tail(a, b) for a, b in links):
            bad = sorted("%s -> %s" % (short(a), short(b))
                         for a, b in links if not tail(a, b))
            raise Fail("%s runs workers, but %s continue after it returns: "
                       "when are the slots given back?" % (short(f),
                                                           ", ".join(bad)))
        if f not in resets:
            late = [short(c) for c in runs if not tail(f, c)]
            if late:
                raise Fail("%s continues after %s returns without "
                           "->ops->scratch_reset: the slots stay allocated; "
                           "tools/check-fw-stack.py has no model for that"
                           % (short(f), ", ".join(late)))
            continue    # the slots end with the entry
        b, steps, _ = prefix(f)
        top, pick = 0, None
        for c, _ in edges[f]:
            if c in scratch:
                continue
            d = deep[c] if c in frames else cost(c, f)
            if d > top:
                top, pick = d, c
        held = max(scratch[c] for c in runs)
        holder = max(runs, key=lambda c: scratch[c])
        rows.append(("%s between workers" % short(f),
                     b + frames[f][0] + top, held,
                     steps + [step(f)] + (chain_below(pick) if pick in frames
                                          else [step(pick)]),
                     "%s's slots, held until the next scratch_reset"
                     % short(holder)))

    # 3. the deepest chain anywhere, no slots live
    rows.append(("deepest chain anywhere", deep[ENTRY], 0,
                 chain_below(ENTRY), "no worker on it: no slots live"))

    out("# budget: SIMA_EV74_LOCAL_BYTES = %d bytes of local memory per "
        "worker (firmware/hal/device_model.h)" % budget)
    out("# charged, not measured: %d bytes per HAL op call (the device's DMA "
        "functions), %d per runtime helper call (libgcc, memcpy-like)"
        % (reserve["hal"], reserve["runtime"]))
    bad = 0
    for n, (label, stack, held, chain, note) in enumerate(rows, 1):
        total = stack + held
        ok = total <= budget
        bad += not ok
        out("%s %d - %s: stack %d + scratch %d = %d of %d bytes (%s %d)"
            % ("ok" if ok else "not ok", n, label, stack, held, total, budget,
               "headroom" if ok else "OVER BY", abs(budget - total)))
        out("#   chain: " + " > ".join(chain))
        out("#   " + note)
    out("1..%d" % len(rows))
    return 1 if bad else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except Fail as e:
        first, *rest = str(e).splitlines()
        out("not ok 1 - firmware stack check: %s" % first)
        for line in rest:
            out("# " + line)
        out("1..1")
        sys.exit(1)
