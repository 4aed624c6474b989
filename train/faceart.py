"""Procedural dice faces for teaching the face reader what "a face" is.

Every call of random_set draws a new die style (body colour and material,
ink, rounding, finish) and a set of distinct faces (pips, numerals, letters
and symbols in many arrangements); view renders one face of it as a camera
would see it: turned, tilted, lit, blurred, noisy and compressed, cropped as
the reader crops a found die. A reader trained to tell faces of many such
sets apart, and to match views of one face, can be taught a new die from a
few pictures without retraining.

Families (FAMILIES) name the kinds of face art; one can be held out of
training to measure art the reader never saw.
"""
import math
import random

import cv2
import numpy as np

FAMILIES = ("pips", "numerals", "letters", "symbols", "mixed")
CANVAS = 96
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
         cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_PLAIN, cv2.FONT_HERSHEY_COMPLEX_SMALL,
         cv2.FONT_HERSHEY_SCRIPT_SIMPLEX)

PIP_LAYOUTS = {
    1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
    7: [(-1, -1), (1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (1, 1)],
    8: [(-1, -1), (0, -1), (1, -1), (-1, 1), (0, 1), (1, 1), (-1, 0), (1, 0)],
    9: [(x, y) for y in (-1, 0, 1) for x in (-1, 0, 1)],
}


def hsv(h, s, v):
    c = cv2.cvtColor(np.uint8([[[h % 180, s, v]]]), cv2.COLOR_HSV2BGR)[0, 0]
    return tuple(int(x) for x in c)


def random_style(rng):
    kind = rng.random()
    if kind < 0.2:
        body = hsv(0, 0, rng.randint(200, 250))          # white
    elif kind < 0.35:
        body = hsv(0, 0, rng.randint(15, 60))            # black
    else:
        body = hsv(rng.randint(0, 179), rng.randint(80, 255), rng.randint(60, 240))
    lum = sum(body) / 3
    if rng.random() < 0.7:
        ink = hsv(0, 0, 20 if lum > 120 else 235)
    else:
        ink = hsv(rng.randint(0, 179), rng.randint(100, 255), 40 if lum > 140 else 230)
    return {
        "body": body, "ink": ink,
        "round": rng.uniform(0.05, 0.3),
        "marble": rng.random() < 0.25,
        "translucent": rng.random() < 0.15,
        "gloss": rng.uniform(0, 1),
        "inset": rng.random() < 0.5,          # engraved look: a darker rim on the ink
        "seed": rng.randrange(1 << 30),
    }


def _glyph(rng, family):
    if family == "mixed":
        family = rng.choice(FAMILIES[:-1])
    if family == "pips":
        n = rng.randint(1, 9)
        return {"kind": "pips", "n": n, "r": rng.uniform(0.07, 0.12), "spread": rng.uniform(0.22, 0.3),
                "square": rng.random() < 0.15}
    if family == "numerals":
        return {"kind": "text", "text": str(rng.randint(0, 20)), "font": rng.choice(FONTS),
                "thick": rng.randint(1, 4), "mark": rng.random() < 0.3}
    if family == "letters":
        letters = "ABCDEFGHJKLMNPQRSTUVWXYZ"
        t = rng.choice(letters) + (rng.choice(letters) if rng.random() < 0.3 else "")
        return {"kind": "text", "text": t, "font": rng.choice(FONTS), "thick": rng.randint(1, 4), "mark": False}
    shape = rng.choice(["star", "cross", "ring", "triangle", "bars", "crescent", "diamond", "arrow", "bolt", "polygon"])
    return {"kind": "symbol", "shape": shape, "n": rng.randint(3, 8), "count": rng.choice([1, 1, 1, 2, 3]),
            "size": rng.uniform(0.25, 0.42), "fill": rng.random() < 0.6, "thick": rng.randint(2, 5),
            "angle": rng.uniform(0, 360), "jitter": [rng.uniform(-1, 1) for _ in range(16)]}


def random_set(rng, family=None, faces=None):
    """A die style and its distinct faces (glyph descriptions)."""
    family = family or rng.choice(FAMILIES)
    faces = faces or rng.randint(4, 12)
    seen, out = set(), []
    tries = 0
    while len(out) < faces and tries < 200:
        tries += 1
        g = _glyph(rng, family)
        key = repr(sorted((k, v) for k, v in g.items() if k not in ("jitter", "angle")))
        if key in seen:
            continue
        seen.add(key)
        out.append(g)
    blank = rng.random() < 0.15
    if blank:
        out.append({"kind": "blank"})
    return random_style(rng), out


def _draw_symbol(img, g, cx, cy, size, ink):
    s = size * CANVAS
    a0 = math.radians(g["angle"])
    j = g["jitter"]
    t = -1 if g["fill"] else g["thick"]

    def poly(pts):
        pts = np.array([[cx + x, cy + y] for x, y in pts], np.int32)
        if g["fill"]:
            cv2.fillPoly(img, [pts], ink, cv2.LINE_AA)
        else:
            cv2.polylines(img, [pts], True, ink, g["thick"], cv2.LINE_AA)

    def rot(x, y):
        return x * math.cos(a0) - y * math.sin(a0), x * math.sin(a0) + y * math.cos(a0)

    sh = g["shape"]
    if sh == "star":
        n = g["n"]
        pts = []
        for i in range(2 * n):
            r = s if i % 2 == 0 else s * (0.4 + 0.15 * j[0])
            a = math.pi * i / n
            pts.append(rot(r * math.cos(a), r * math.sin(a)))
        poly(pts)
    elif sh == "polygon":
        n = g["n"]
        poly([rot(s * (0.85 + 0.15 * j[i % 16]) * math.cos(2 * math.pi * i / n), s * (0.85 + 0.15 * j[i % 16]) * math.sin(2 * math.pi * i / n)) for i in range(n)])
    elif sh == "triangle":
        poly([rot(s * math.cos(a), s * math.sin(a)) for a in (-math.pi / 2, math.pi / 6, 5 * math.pi / 6)])
    elif sh == "diamond":
        poly([rot(0, -s), rot(s * 0.6, 0), rot(0, s), rot(-s * 0.6, 0)])
    elif sh == "cross":
        w = s * 0.3
        poly([rot(x, y) for x, y in [(-w, -s), (w, -s), (w, -w), (s, -w), (s, w), (w, w), (w, s), (-w, s), (-w, w), (-s, w), (-s, -w), (-w, -w)]])
    elif sh == "arrow":
        poly([rot(x * s, y * s) for x, y in [(0, -1), (0.7, -0.1), (0.25, -0.1), (0.25, 1), (-0.25, 1), (-0.25, -0.1), (-0.7, -0.1)]])
    elif sh == "bolt":
        poly([rot(x * s, y * s) for x, y in [(0.2, -1), (-0.5, 0.1), (0, 0.1), (-0.2, 1), (0.5, -0.15), (0, -0.15)]])
    elif sh == "ring":
        cv2.circle(img, (int(cx), int(cy)), int(s), ink, g["thick"] + 1, cv2.LINE_AA)
        if g["fill"]:
            cv2.circle(img, (int(cx), int(cy)), int(s * 0.35), ink, -1, cv2.LINE_AA)
    elif sh == "crescent":
        cv2.circle(img, (int(cx), int(cy)), int(s), ink, -1, cv2.LINE_AA)
        dx, dy = rot(s * 0.5, 0)
        cv2.circle(img, (int(cx + dx), int(cy + dy)), int(s * 0.85), (0, 0, 0, 0), -1, cv2.LINE_AA)
    elif sh == "bars":
        n = max(1, g["n"] - 2)
        for i in range(n):
            y = (i - (n - 1) / 2) * s * 0.5
            poly([rot(-s, y - s * 0.1), rot(s, y - s * 0.1), rot(s, y + s * 0.1), rot(-s, y + s * 0.1)])


def draw_face(style, g):
    """The face's top as a CANVAS x CANVAS picture (BGR) and its mask."""
    rng = random.Random(style["seed"])
    img = np.zeros((CANVAS, CANVAS, 3), np.uint8)
    img[:] = style["body"]
    if style["marble"]:
        n = np.random.default_rng(style["seed"]).normal(0, 1, (CANVAS // 8, CANVAS // 8)).astype(np.float32)
        n = cv2.resize(n, (CANVAS, CANVAS), interpolation=cv2.INTER_CUBIC)
        swirl = (np.sin(n * 3) * 40).astype(np.float32)
        img = np.clip(img.astype(np.float32) + swirl[..., None], 0, 255).astype(np.uint8)
    ink = style["ink"]
    layer = np.zeros((CANVAS, CANVAS, 3), np.uint8)
    mask = np.zeros((CANVAS, CANVAS), np.uint8)
    c = CANVAS / 2
    k = g["kind"]
    if k == "pips":
        r = int(g["r"] * CANVAS)
        for x, y in PIP_LAYOUTS[g["n"]]:
            px, py = int(c + x * g["spread"] * CANVAS), int(c + y * g["spread"] * CANVAS)
            if g["square"]:
                cv2.rectangle(mask, (px - r, py - r), (px + r, py + r), 255, -1)
            else:
                cv2.circle(mask, (px, py), r, 255, -1, cv2.LINE_AA)
    elif k == "text":
        scale = 1.0
        (tw, th), _ = cv2.getTextSize(g["text"], g["font"], scale, g["thick"])
        scale = 0.62 * CANVAS / max(tw, th * 1.3)
        (tw, th), base = cv2.getTextSize(g["text"], g["font"], scale, g["thick"])
        cv2.putText(mask, g["text"], (int(c - tw / 2), int(c + th / 2)), g["font"], scale, 255, g["thick"], cv2.LINE_AA)
        if g.get("mark"):
            cv2.line(mask, (int(c - tw / 2), int(c + th / 2 + 6)), (int(c + tw / 2), int(c + th / 2 + 6)), 255, 2)
    elif k == "symbol":
        n = g["count"]
        offs = [(0, 0)] if n == 1 else [(-0.2, 0), (0.2, 0)] if n == 2 else [(-0.22, 0.15), (0.22, 0.15), (0, -0.22)]
        sz = g["size"] if n == 1 else g["size"] * 0.55
        sym = np.zeros((CANVAS, CANVAS, 3), np.uint8)
        for ox, oy in offs:
            _draw_symbol(sym, g, c + ox * CANVAS, c + oy * CANVAS, sz, (255, 255, 255))
        mask = sym[..., 0]
    layer[:] = ink
    m = (mask.astype(np.float32) / 255)[..., None]
    if style["inset"]:
        rim = cv2.dilate(mask, np.ones((3, 3), np.uint8))
        rm = (rim.astype(np.float32) / 255)[..., None] - m
        img = (img * (1 - 0.4 * rm)).astype(np.uint8)
    img = (img * (1 - m) + layer * m).astype(np.uint8)
    _ = rng
    return img


def noisy(img, sigma, rng):
    """img (uint8) with Gaussian noise of sigma grey levels, saturated."""
    cv2.setRNGSeed(rng.randrange(1 << 30))
    n = np.empty(img.shape, np.float32)
    cv2.randn(n, 0, sigma)
    return cv2.add(img.astype(np.float32), n).clip(0, 255).astype(np.uint8)


def view(style, g, rng, side=48, grow=1.25):
    """One camera's view of face g, cropped around the die as the reader does."""
    top = draw_face(style, g)
    # The die seen from above: its top, and slivers of its sides on a table.
    S = 160
    canvas = np.zeros((S, S, 3), np.uint8)
    bg = hsv(rng.randint(0, 179), rng.randint(0, 120), rng.randint(40, 220))
    canvas[:] = bg
    canvas = noisy(canvas, 6, rng)
    half = rng.uniform(26, 34)
    # Perspective: the top as a quadrilateral, squeezed by a tilt.
    tilt = rng.uniform(0, 0.35)
    ang = rng.uniform(0, 2 * math.pi)
    corners = []
    for a in (0.25, 0.75, 1.25, 1.75):
        x, y = half * math.sqrt(2) * math.cos(math.pi * a + ang), half * math.sqrt(2) * math.sin(math.pi * a + ang)
        y *= 1 - tilt
        corners.append((S / 2 + x + rng.uniform(-1.5, 1.5), S / 2 + y + rng.uniform(-1.5, 1.5)))
    # The sides: the top shifted down, darker, drawn first.
    side_shade = rng.uniform(0.45, 0.8)
    dy = half * tilt * 1.4 + rng.uniform(0, 3)
    body = np.array(style["body"], np.float32)
    sides = [(x, y + dy) for x, y in corners]
    hull = cv2.convexHull(np.array(corners + sides, np.float32)).astype(np.int32)
    cv2.fillPoly(canvas, [hull], tuple(int(v) for v in body * side_shade), cv2.LINE_AA)
    src = np.float32([[0, 0], [CANVAS, 0], [CANVAS, CANVAS], [0, CANVAS]])
    M = cv2.getPerspectiveTransform(src, np.float32(corners))
    warped = cv2.warpPerspective(top, M, (S, S), flags=cv2.INTER_LINEAR)
    wmask = cv2.warpPerspective(np.full((CANVAS, CANVAS), 255, np.uint8), M, (S, S))
    # Rounded corners: erode the mask's corners a little.
    r = int(style["round"] * 10)
    if r > 0:
        wmask = cv2.erode(wmask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))
        wmask = cv2.dilate(wmask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r - 1, 2 * r - 1))) if r > 1 else wmask
    m = (cv2.GaussianBlur(wmask, (3, 3), 0).astype(np.float32) / 255)[..., None]
    if style["translucent"]:
        m = m * 0.85
    canvas = (canvas * (1 - m) + warped * m).astype(np.float32)
    # Light: a gradient, a gain and a glossy highlight.
    gx, gy = np.meshgrid(np.linspace(-1, 1, S), np.linspace(-1, 1, S))
    la = rng.uniform(0, 2 * math.pi)
    canvas *= (1 + rng.uniform(0, 0.35) * (gx * math.cos(la) + gy * math.sin(la)))[..., None]
    canvas *= rng.uniform(0.5, 1.4)
    canvas *= np.array([rng.uniform(0.8, 1.2) for _ in range(3)], np.float32)
    if rng.random() < style["gloss"]:
        hx, hy = S / 2 + rng.uniform(-half, half), S / 2 + rng.uniform(-half, half)
        hs = rng.uniform(3, 10)
        hl = np.exp(-((gx * S / 2 + S / 2 - hx) ** 2 + (gy * S / 2 + S / 2 - hy) ** 2) / (2 * hs * hs))
        canvas += (hl * rng.uniform(60, 180))[..., None] * m
    canvas = np.clip(canvas, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        canvas = cv2.GaussianBlur(canvas, (0, 0), rng.uniform(0.3, 1.3))
    # The reader's crop: the die's box (top and sides) grown by grow.
    xs = [p[0] for p in corners + sides]
    ys = [p[1] for p in corners + sides]
    bw, bh = max(xs) - min(xs), max(ys) - min(ys)
    cx, cy = (max(xs) + min(xs)) / 2 + rng.uniform(-0.08, 0.08) * bw, (max(ys) + min(ys)) / 2 + rng.uniform(-0.08, 0.08) * bh
    sz = max(bw, bh) * grow * math.exp(rng.uniform(-0.12, 0.12))
    # Seen at a camera's size: dice of 14 to 60 pixels across.
    px = rng.uniform(14, 60)
    small = max(8, int(round(S * px / max(bw, bh))))
    canvas = cv2.resize(canvas, (small, small), interpolation=cv2.INTER_AREA)
    k = small / S
    canvas = noisy(canvas, rng.uniform(0, 7), rng)
    if rng.random() < 0.5:
        ok, enc = cv2.imencode(".jpg", canvas, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(40, 92)])
        canvas = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    s = side / (sz * k)
    M = np.float32([[s, 0, side / 2 - s * cx * k], [0, s, side / 2 - s * cy * k]])
    interp = cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
    out = cv2.warpAffine(canvas, M, (side, side), flags=interp, borderMode=cv2.BORDER_REPLICATE)
    if rng.random() < 0.3:
        out = np.repeat(out.mean(axis=2, keepdims=True), 3, axis=2).astype(np.uint8)
    return out


if __name__ == "__main__":
    import sys
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
    rows = []
    for fam in FAMILIES:
        style, faces = random_set(rng, fam, 8)
        row = [cv2.resize(view(style, faces[i % len(faces)], rng), (96, 96), interpolation=cv2.INTER_NEAREST) for i in range(8)]
        row += [cv2.resize(view(style, faces[0], rng), (96, 96), interpolation=cv2.INTER_NEAREST) for _ in range(3)]
        rows.append(np.hstack(row))
    cv2.imwrite(sys.argv[2] if len(sys.argv) > 2 else "/tmp/faceart.png", np.vstack(rows))
