#!/usr/bin/env python3
"""Every launch line of the plugin's documentation runs in a test.

Reads the |[ ... ]| blocks of the gtk-doc comments in gst/*.c and requires
each block, line for line (indentation aside), in one of pipelines/*.sh,
which the pipelines suite runs. Also requires a SECTION:element-NAME block
with at least one launch line for every element the plugin registers.

    check-doc-launch-lines.py SOURCE_ROOT
"""
import pathlib
import re
import sys


def doc_blocks(text):
    """The |[ ... ]| blocks of a C file's comments, as lists of lines."""
    blocks, current = [], None
    for raw in text.splitlines():
        line = re.sub(r"^\s*\* ?", "", raw) if raw.lstrip().startswith("*") else None
        if line is None:
            continue
        if current is None:
            if line.strip() == "|[":
                current = []
        elif line.lstrip().startswith("]|"):
            blocks.append(current)
            current = None
        else:
            current.append(line.strip())
    return blocks


def contains(haystack, needle):
    n = len(needle)
    return any(haystack[i:i + n] == needle for i in range(len(haystack) - n + 1))


def main(root):
    root = pathlib.Path(root)
    scripts = {p.name: [l.strip() for l in p.read_text().splitlines()]
               for p in sorted((root / "pipelines").glob("*.sh"))}
    errors, checked = [], 0
    for source in sorted((root / "gst").glob("*.c")):
        text = source.read_text()
        for element in re.findall(r"GST_ELEMENT_REGISTER_DEFINE\s*\(\s*(\w+)", text):
            if f"SECTION:element-{element}" not in text:
                errors.append(f"{source.name}: no SECTION:element-{element} block")
        blocks = [b for b in doc_blocks(text) if any("gst-launch-1.0" in l for l in b)]
        if "SECTION:element-" in text and not blocks:
            errors.append(f"{source.name}: its SECTION block has no launch line")
        for block in blocks:
            checked += 1
            if not any(contains(lines, block) for lines in scripts.values()):
                errors.append(f"{source.name}: this launch line is in no "
                              f"pipelines/*.sh:\n    " + "\n    ".join(block))
    for e in errors:
        print(e, file=sys.stderr)
    if checked == 0:
        errors.append("no launch lines found")
    print(f"{checked} documented launch lines, {len(errors)} problems")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
