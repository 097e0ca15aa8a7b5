#!/usr/bin/env python3
"""Checks for the browser test (browser.sh), python3 standard library only.

  browser_check.py netlog NETLOG.json  -> exit 1 if the page made a network request
  browser_check.py png SHOT.png        -> exit 1 if the screenshot is blank

Network requests: Chromium's net log (--log-net-log) records every URL request with its initiator.
Requests of the page carry the page's origin ("null" for a file:// page); Chromium's own
background services (update checks, time, accounts) carry "not an origin" and are not the page's.
"""
import json
import struct
import sys
import zlib


def netlog(path):
    d = json.load(open(path))
    types = {v: k for k, v in d["constants"]["logEventTypes"].items()}
    page, background = [], 0
    for e in d["events"]:
        if types.get(e["type"]) != "URL_REQUEST_START_JOB":
            continue
        p = e.get("params", {})
        url = p.get("url", "")
        if not url or url.startswith(("file:", "data:", "about:", "chrome:")):
            continue
        if p.get("initiator") == "not an origin":
            background += 1
            continue
        page.append(url)
    print(f"net log: {len(page)} request(s) by the page, {background} by Chromium's own services (ignored)")
    for u in sorted(set(page)):
        print("  page request:", u)
    return 1 if page else 0


def png_pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, typ = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if typ == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype not in (2, 6):
                raise ValueError(f"unsupported PNG (depth {depth}, colour type {ctype})")
            bpp = 3 if ctype == 2 else 4
        elif typ == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def png(path):
    w, h, bpp, rows = png_pixels(path)
    nonwhite, colours = 0, set()
    for line in rows:
        for x in range(0, w * bpp, bpp):
            px = line[x:x + 3]
            if px != b"\xff\xff\xff":
                nonwhite += 1
                if len(colours) < 64:
                    colours.add(px)
    share = nonwhite / (w * h)
    print(f"screenshot {w}x{h}: {100 * share:.1f} % non-white pixels, {len(colours)}+ colours")
    return 0 if share > 0.02 and len(colours) >= 8 else 1


if __name__ == "__main__":
    sys.exit({"netlog": netlog, "png": png}[sys.argv[1]](sys.argv[2]))
