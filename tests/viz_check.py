#!/usr/bin/env python3
"""Checks for tinyarena's pictures of a plan (called by viz_check.sh).

  viz_check.py rects FILE PLAN.json      the map of PLAN's strategy in FILE (.svg or .html)
                                         has one rect per buffer, at the JSON's offsets
  viz_check.py maps FILE.html N          every map in the page has N buffers drawn where
                                         its attributes say, inside the arena, none overlapping
  viz_check.py table FILE.html CLI.txt   the page's strategy table = the CLI's, cell for cell
  viz_check.py timeline OUT.txt PLAN.json  80 columns, one row per step, the peak marked
  viz_check.py png FILE.png              the screenshot is not blank: many colours, and the
                                         activation colour of the maps is on it
  viz_check.py patch FILE PLAN.json HEADER.h  the firmware map (patch stages) in FILE: its
                                         arena, bound, stages and firmware arena are the JSON's
                                         `patch`/`runtime` and the header's; one rect per header
                                         entry; each band buffer drawn as its stage's bands,
                                         the largest filling the buffer
Exit status 0 when the check holds; otherwise one line says why.
"""
import json
import re
import sys
import xml.etree.ElementTree as ET
import zlib

SVG = "{http://www.w3.org/2000/svg}"
TOL = 0.011  # coordinates are written with 2 decimals


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def maps_in(path):
    root = ET.parse(path).getroot()
    maps = [e for e in root.iter(SVG + "svg") if "arena-map" in e.get("class", "")]
    if not maps:
        fail(f"{path}: no arena map")
    return maps


def buffers_of(svg):
    return [r for r in svg.iter(SVG + "rect") if r.get("data-i") is not None and "buf" in r.get("class", "").split()]


def bands_of(svg):
    return [r for r in svg.iter(SVG + "rect") if "band" in r.get("class", "").split()]


def check_geometry(path, svg):
    """Every rect where its data attributes put it: x from the steps, bottom
    edge from the offset, height at least the bytes (>= 1 px)."""
    x0, px = float(svg.get("data-x0")), float(svg.get("data-step-px"))
    y0, bpx = float(svg.get("data-y0")), float(svg.get("data-byte-px"))
    lo, arena = int(svg.get("data-lo")), int(svg.get("data-arena"))
    for r in buffers_of(svg):
        off, pad = int(r.get("data-offset")), int(r.get("data-padded"))
        first, last = int(r.get("data-first")), int(r.get("data-last"))
        x, y, w, h = (float(r.get(a)) for a in ("x", "y", "width", "height"))
        want_h = max(pad * bpx, 1.0)
        if (abs(x - (x0 + (first - lo) * px)) > TOL or abs(w - (last - first + 1) * px) > TOL
                or abs(y + h - (y0 - off * bpx)) > 2 * TOL or abs(h - want_h) > 2 * TOL):
            fail(f"{path}: {svg.get('data-strategy')}: buffer {r.get('data-i')} drawn at "
                 f"x={x} y={y} w={w} h={h}, not at offset {off} steps {first}..{last}")
        if off + pad > arena:
            fail(f"{path}: buffer {r.get('data-i')} ends at {off + pad}, beyond the arena {arena}")
        if r.find(SVG + "title") is None or not r.find(SVG + "title").text:
            fail(f"{path}: buffer {r.get('data-i')} has no hover title")


def no_overlap(path, svg):
    """No two buffers live at the same step share a byte (a plan drawn wrong
    would show it): a sweep over steps, sorting the live buffers by offset."""
    bufs = [(int(r.get("data-first")), int(r.get("data-last")), int(r.get("data-offset")),
             int(r.get("data-padded")), r.get("data-i")) for r in buffers_of(svg)]
    if svg.get("data-fixed-conflicts", "0") != "0":
        return
    steps = {}
    for b in bufs:
        if b[3] == 0:
            continue
        for s in range(b[0], b[1] + 1):
            steps.setdefault(s, []).append(b)
    for s, live in steps.items():
        live.sort(key=lambda b: b[2])
        for a, b in zip(live, live[1:]):
            if a[2] + a[3] > b[2]:
                fail(f"{path}: {svg.get('data-strategy')}: buffers {a[4]} and {b[4]} overlap at step {s}")


def cmd_rects(path, plan_json):
    plan = json.load(open(plan_json))
    want = plan["buffers"]
    maps = [m for m in maps_in(path) if m.get("data-strategy") == plan["strategy"] and m.get("data-patch-stages") is None]
    if len(maps) != 1:
        fail(f"{path}: {len(maps)} maps of strategy {plan['strategy']}")
    svg = maps[0]
    rects = buffers_of(svg)
    if len(rects) != len(want):
        fail(f"{path}: {len(rects)} rects for {len(want)} buffers")
    seen = set()
    for r in rects:
        i = int(r.get("data-i"))
        if i in seen or not 0 <= i < len(want):
            fail(f"{path}: rect data-i={i} repeated or out of range")
        seen.add(i)
        b = want[i]
        got = (r.get("data-id"), int(r.get("data-size")), int(r.get("data-first")),
               int(r.get("data-last")), int(r.get("data-offset")))
        exp = (b["id"], b["size"], b["first"], b["last"], b["offset"])
        if got != exp:
            fail(f"{path}: buffer {i}: rect {got} != JSON {exp}")
    if int(svg.get("data-arena")) != plan["arena_bytes"]:
        fail(f"{path}: arena {svg.get('data-arena')} != JSON {plan['arena_bytes']}")
    if int(svg.get("data-lower-bound")) != plan["lower_bound_bytes"]:
        fail(f"{path}: lower bound {svg.get('data-lower-bound')} != JSON {plan['lower_bound_bytes']}")
    check_geometry(path, svg)
    print(f"ok: {path}: {len(rects)} rects = JSON buffers ({plan['strategy']}), offsets and geometry match")


def cmd_maps(path, n):
    maps = maps_in(path)
    for svg in maps:
        got = len(buffers_of(svg))
        if got != int(n):
            fail(f"{path}: {svg.get('data-strategy')} map has {got} rects, want {n}")
        check_geometry(path, svg)
        no_overlap(path, svg)
    print(f"ok: {path}: {len(maps)} maps ({', '.join(m.get('data-strategy') for m in maps)}), "
          f"{n} buffers each, placed as planned, none overlapping")


def cmd_table(path, cli_txt):
    root = ET.parse(path).getroot()
    html_rows = []
    for tr in root.iter("{http://www.w3.org/1999/xhtml}tr"):
        if tr.get("data-strategy") is None:
            continue
        cells = ["".join(td.itertext()).strip() for td in tr]
        html_rows.append(cells)
    cli_rows = []
    lines = open(cli_txt).read().splitlines()
    start = next(k for k, l in enumerate(lines) if l.startswith("strategy "))
    for line in lines[start + 1:]:
        m = re.match(r"^(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)  ?(.*)$", line)
        if not m or line.startswith("largest live set"):
            break
        cli_rows.append([m.group(k).strip() for k in range(1, 7)])
    if not cli_rows or html_rows != cli_rows:
        fail(f"{path}: strategy table differs from the CLI:\n  html {html_rows}\n  cli  {cli_rows}")
    print(f"ok: {path}: strategy table = CLI table ({len(cli_rows)} rows)")


def cmd_timeline(out_txt, plan_json):
    plan = json.load(open(plan_json))
    text = open(out_txt, encoding="utf-8").read()
    lines = text.splitlines()
    start = next((k for k, l in enumerate(lines) if l.startswith("timeline, ")), None)
    if start is None:
        fail(f"{out_txt}: no timeline heading")
    tl = lines[start:]
    for l in tl:
        if len(l) > 80:
            fail(f"{out_txt}: line of {len(l)} columns: {l!r}")
        if "\x1b" in l:
            fail(f"{out_txt}: ANSI escape in plain output")
    rows = [l for l in tl[2:] if re.match(r"^ *-?\d+ ", l)]
    steps = max(b["last"] for b in plan["buffers"]) - min(0, min(b["first"] for b in plan["buffers"])) + 1
    if "ops" in plan:
        steps = max(steps, plan["ops"] + 1)
    if len(rows) != steps:
        fail(f"{out_txt}: {len(rows)} rows for {steps} steps")
    peak = [r for r in rows if r.endswith(" peak")]
    if not any(int(r.split()[0]) == plan["peak_step"] for r in peak):
        fail(f"{out_txt}: the peak step {plan['peak_step']} is not marked")
    lb = f"{plan['lower_bound_bytes']:,}"
    if not all(lb in r for r in peak):
        fail(f"{out_txt}: a peak row does not show the lower bound {lb}")
    print(f"ok: {out_txt}: {len(rows)} rows (one per step), all <= 80 columns, plain ASCII, "
          f"peak at step {plan['peak_step']} marked")


def png_pixels(path):
    """RGB(A) rows of an 8-bit non-interlaced PNG (what Chromium writes)."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(f"{path}: not a PNG")
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        n = int.from_bytes(data[pos:pos + 4], "big")
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h = int.from_bytes(hdr[0:4], "big"), int.from_bytes(hdr[4:8], "big")
    depth, ctype, interlace = hdr[8], hdr[9], hdr[12]
    if depth != 8 or ctype not in (2, 6) or interlace:
        fail(f"{path}: unexpected PNG format (depth {depth}, colour type {ctype}, interlace {interlace})")
    bpp = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(idat), w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        ft, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):  # undo the row filter (PNG spec, section 9)
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if ft == 1:
                line[i] = (line[i] + a) & 255
            elif ft == 2:
                line[i] = (line[i] + b) & 255
            elif ft == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ft == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def cmd_png(path):
    w, h, bpp, rows = png_pixels(path)
    colours, non_white, activation = set(), 0, 0
    for row in rows[::2]:  # every other row is plenty and halves the time
        for x in range(0, w * bpp, bpp):
            px = row[x:x + 3]
            colours.add(px)
            if px != b"\xff\xff\xff":
                non_white += 1
            if px == b"\x4e\x79\xa7":  # the activation fill (#4e79a7)
                activation += 1
    sampled = (h + 1) // 2 * w
    share = non_white / sampled
    if len(colours) < 64 or share < 0.05 or activation < 500:
        fail(f"{path}: looks blank: {len(colours)} colours, {share:.1%} not white, "
             f"{activation} activation pixels")
    print(f"ok: {path}: {w}x{h}, {len(colours)} colours, {share:.0%} not white, "
          f"{activation} sampled pixels of the activation colour")


def header_figures(path):
    """The header's first <P>_BYTES and <P>_ARENA_BYTES (the host ABI's) and its entries."""
    text = open(path).read()
    planned = re.search(r"#define \w+?_BYTES (\d+)u\b", text)
    arena = re.search(r"#define \w+_ARENA_BYTES (\d+)u\b", text)
    entries = [tuple(int(v) for v in m.groups()) for m in
               re.finditer(r"\{TA_BUDGET_\w+, \d+, \d+, (\d+)u, (\d+)u, (-?\d+), (-?\d+)\}", text)]
    if not planned or not arena or not entries:
        fail(f"{path}: no _BYTES, _ARENA_BYTES or entries")
    return int(planned.group(1)), int(arena.group(1)), entries


def cmd_patch(path, plan_json, header):
    plan = json.load(open(plan_json))
    p, rt = plan.get("patch"), plan.get("runtime")
    if not p or not rt:
        fail(f"{plan_json}: no patch stages or no runtime figures")
    maps = [m for m in maps_in(path) if m.get("data-patch-stages") is not None]
    if len(maps) != 1:
        fail(f"{path}: {len(maps)} firmware maps with patch stages, want 1")
    svg = maps[0]
    planned, fw_arena, entries = header_figures(header)
    a = lambda k: int(svg.get(k))
    want = {"data-arena": p["planned_bytes_after"], "data-patch-bytes-before": p["planned_bytes_before"],
            "data-patch-bytes-after": p["planned_bytes_after"], "data-patch-extra-macs": p["extra_macs"],
            "data-patch-macs": p["macs"], "data-patch-first-op": p["first_op"], "data-patch-last-op": p["last_op"],
            "data-patch-stages": len(p["stages"]), "data-firmware-arena": rt["firmware_arena_bytes"]}
    for k, v in want.items():
        if a(k) != v:
            fail(f"{path}: {k}={a(k)}, plan --json says {v}")
    if svg.get("data-patch-grid") != p["grid"]:
        fail(f"{path}: grid {svg.get('data-patch-grid')} != JSON {p['grid']}")
    if a("data-arena") != rt["planned_bytes"] or a("data-arena") != planned:
        fail(f"{path}: arena {a('data-arena')} != runtime.planned_bytes {rt['planned_bytes']} / header {planned}")
    if a("data-firmware-arena") != fw_arena:
        fail(f"{path}: firmware arena {a('data-firmware-arena')} != the header's _ARENA_BYTES {fw_arena}")
    rects = buffers_of(svg)
    got = sorted((int(r.get("data-offset")), int(r.get("data-padded")), int(r.get("data-first")),
                  int(r.get("data-last"))) for r in rects)
    if got != sorted(entries):
        fail(f"{path}: {len(got)} rects are not the header's {len(entries)} entries")
    # (no no_overlap: the runtime's plan keeps the OVERLAP relations, whose
    # buffers share bytes on purpose)
    check_geometry(path, svg)
    # the peak: the most padded bytes live at one step
    lo, hi = min(e[2] for e in entries), max(e[3] for e in entries)
    peak = max(sum(e[1] for e in entries if e[2] <= t <= e[3]) for t in range(lo, hi + 1))
    if a("data-lower-bound") != peak:
        fail(f"{path}: lower bound {a('data-lower-bound')} != the entries' peak {peak}")
    # bands: per band buffer, its stage's grid of columns inside the buffer's
    # rect, none larger than the buffer, the largest within alignment of it
    by_i = {int(r.get("data-i")): r for r in rects}
    grids = [int(s["grid"].split("x")[0]) for s in p["stages"]]
    bands = {}
    for b in bands_of(svg):
        bands.setdefault(int(b.get("data-i")), []).append(b)
    band_bufs = [r for r in rects if "stage-band" in r.get("class", "").split()]
    if not band_bufs or len(bands) != len(band_bufs) or len(bands) != a("data-band-buffers"):
        fail(f"{path}: {len(bands)} buffers drawn in bands, {len(band_bufs)} band buffers, "
             f"data-band-buffers {svg.get('data-band-buffers')}")
    x0, px, bpx = float(svg.get("data-x0")), float(svg.get("data-step-px")), float(svg.get("data-byte-px"))
    for i, cols in bands.items():
        r = by_i.get(i)
        if r is None or "stage-band" not in r.get("class", ""):
            fail(f"{path}: bands drawn for buffer {i}, not a band buffer")
        n = grids[int(r.get("data-stage"))]
        pad = int(r.get("data-padded"))
        sizes = [int(c.get("data-bytes")) for c in sorted(cols, key=lambda c: int(c.get("data-band")))]
        if len(sizes) != n or max(sizes) > pad or pad - max(sizes) >= 16:
            fail(f"{path}: buffer {i} ({pad} B): bands {sizes}, want {n} of at most {pad} B, the largest filling it")
        rx, rw = float(r.get("x")), float(r.get("width"))
        for c in cols:
            cx, cw, ch = float(c.get("x")), float(c.get("width")), float(c.get("height"))
            if cx < rx - TOL or cx + cw > rx + rw + TOL or abs(ch - max(int(c.get("data-bytes")) * bpx, 1.0)) > 2 * TOL:
                fail(f"{path}: buffer {i} band {c.get('data-band')} drawn outside its buffer or at the wrong height")
    print(f"ok: {path}: firmware map = plan --json and the header: planned {a('data-arena')} B, firmware arena "
          f"{fw_arena} B, {len(p['stages'])} stages ({', '.join(s['grid'] for s in p['stages'])}), "
          f"{len(rects)} entries, {len(bands)} band buffers drawn band by band")


if __name__ == "__main__":
    cmds = {"patch": cmd_patch, "rects": cmd_rects, "maps": cmd_maps, "table": cmd_table, "timeline": cmd_timeline, "png": cmd_png}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        print(__doc__)
        sys.exit(2)
    cmds[sys.argv[1]](*sys.argv[2:])
