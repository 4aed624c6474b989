"""Trains the face reader: one network with two heads.

- logits: the six pip faces of a d6, learnt from die crops of the real
  photos (train split of data.py);
- embedding: a descriptor in which views of one face are near and other
  faces far, learnt from procedural face sets (faceart.py) by prototypes:
  for each face of a batch one view is the prototype, another is matched
  against all prototypes of the batch. A die the group teaches is then read
  by the nearest taught prototype, with no retraining.

The family --hold-out of faceart is never trained on; the end of each epoch
measures 5-shot reading of new sets of that family.

    /usr/bin/python3 train/train_faces.py --work ~/.cache/tablecam-train/faces --out DIR
"""
import math
import os
import random
import sys
import time

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import data  # noqa: E402
import faceart  # noqa: E402
import nets  # noqa: E402
import onnxio  # noqa: E402
import train_finder as tf  # noqa: E402

SIDE = 48
# The crop around a found die: its box grown by this factor, so that a
# finder box a little off still holds the whole top face.
GROW = 1.25
EXPORT_SHAPE = (1, 3, SIDE, SIDE)
# The six pip faces, then NONE: a view the finder marked that is not a die's
# top face (a pip of a large die, a side face, the table). The reader drops
# a mark read as NONE instead of naming a face for it.
FACES = 6
NONE = FACES
CLASSES = FACES + 1


# How far a training view's box strays from the labelled one: the finder's
# boxes on real photos are off by about this much.
JITTER_SCALE = 0.15
JITTER_SHIFT = 0.1


def crop(img, cx, cy, w, h, rng=None):
    """A SIDE x SIDE view of a die at (cx, cy) of size (w, h) in pixels,
    turned by a random angle and jittered when rng is given."""
    side = max(w, h) * GROW
    ang = 0.0
    if rng is not None:
        side *= math.exp(rng.uniform(-JITTER_SCALE, JITTER_SCALE))
        cx += rng.uniform(-JITTER_SHIFT, JITTER_SHIFT) * w
        cy += rng.uniform(-JITTER_SHIFT, JITTER_SHIFT) * h
        ang = rng.uniform(0, 360)
    s = SIDE / side
    M = cv2.getRotationMatrix2D((cx, cy), ang, s)
    M[0, 2] += SIDE / 2 - cx
    M[1, 2] += SIDE / 2 - cy
    interp = cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
    return cv2.warpAffine(img, M, (SIDE, SIDE), flags=interp, borderMode=cv2.BORDER_REPLICATE)


ARCHS = ("full", "half", "wide")


class Faces(nn.Module):
    """One body and the embedding of taught faces; the d6 classes read the
    embedding.

    arch "full" runs two full 3x3 convolutions at the input's resolution;
    "half" runs one narrow one there and goes to half the resolution at
    once, for about a third of the arithmetic; "wide" is "full" with a
    third more channels in every layer and a fourth stage."""

    def __init__(self, classes=CLASSES, dim=64, width=(24, 48, 96), arch="full"):
        super().__init__()
        w = width
        if arch == "half":
            self.body = nn.Sequential(
                nets.conv_bn(3, 16, 3, 1),
                nets.conv_bn(16, 32, 3, 2),  # 24
                nets.Separable(32, 32),
                nets.stage(32, 64, 2),       # 12
                nets.stage(64, w[2], 2),     # 6
            )
        elif arch == "wide":
            w = (32, 64, 128)
            self.body = nn.Sequential(
                nets.conv_bn(3, w[0], 3, 1),
                nets.conv_bn(w[0], w[0], 3, 1),
                nets.stage(w[0], w[1], 2),   # 24
                nets.stage(w[1], w[2], 2),   # 12
                nets.stage(w[2], w[2], 2),   # 6
                nets.Separable(w[2], w[2]),
            )
        else:
            self.body = nn.Sequential(
                nets.conv_bn(3, w[0], 3, 1),
                nets.conv_bn(w[0], w[0], 3, 1),
                nets.stage(w[0], w[1], 2),   # 24
                nets.stage(w[1], w[2], 2),   # 12
                nets.stage(w[2], w[2], 2),   # 6
            )
        self.emb = nn.Linear(w[2], dim)
        self.cls = nn.Linear(dim, classes)

    def forward(self, x):
        v = F.adaptive_avg_pool2d(self.body(x), 1).flatten(1)
        e = self.emb(v)
        return self.cls(F.relu(e)), e


def samples(photos):
    out = []
    for pi, p in enumerate(photos):
        for c, cx, cy, w, h in p.boxes:
            # Class 0: a rendered die of another set than the d6.
            if c > 0:
                out.append((pi, c - 1, cx, cy, w, h))
    return out


def load_all(photos):
    # JPEG bytes in memory: decoding is cheap, reading the disk again is not.
    return [np.fromfile(p.path, np.uint8) for p in photos]


def inside(x, y, px):
    return any(abs(x - cx) <= w / 2 and abs(y - cy) <= h / 2 for cx, cy, w, h in px)


def negative(img, p, cx, cy, w, h, rng, pip=0.4):
    """A view of the photo that a finder could mark but that is no die's
    top face, near the die at (cx, cy, w, h) in pixels, or None. A share
    pip of them are a pip or a corner of the die; the rest lie beside the
    die or on the table."""
    H, W = img.shape[:2]
    px = [(bx * W, by * H, bw * W, bh * H) for _, bx, by, bw, bh in p.boxes]
    kind = rng.random()
    if kind < pip:
        # A pip or a corner of this die: a mark much smaller than the die.
        # Such a view looks like the 1 or 2 of a light die whose edges do
        # not stand out from the table, so the reader also drops these
        # marks by geometry (a small mark inside a larger one's box).
        k = rng.uniform(0.2, 0.45)
        return crop(img, cx + rng.uniform(-0.35, 0.35) * w, cy + rng.uniform(-0.35, 0.35) * h, w * k, h * k, rng)
    beside = (kind - pip) / (1 - pip) < 0.35 / 0.6
    for _ in range(6):
        if beside:
            # Beside the die: a side face, the gap between two dice.
            a = rng.uniform(0, 2 * math.pi)
            d = rng.uniform(0.6, 1.0)
            x, y = cx + math.cos(a) * d * w, cy + math.sin(a) * d * h
        else:
            # The table.
            x, y = rng.uniform(0, W), rng.uniform(0, H)
        if not inside(x, y, px):
            k = math.exp(rng.uniform(-0.4, 0.3))
            return crop(img, x, y, w * k, h * k, rng)
    return None


def pip_view(rng):
    """A procedural d6 face (faceart's die styles: colours, marble, gloss,
    tilt, light) and its class: dice of colours the real photos lack."""
    n = rng.randint(1, 6)
    g = {"kind": "pips", "n": n, "r": rng.uniform(0.07, 0.12), "spread": rng.uniform(0.22, 0.3), "square": False}
    return faceart.view(faceart.random_style(rng), g, rng, SIDE, GROW), n - 1


def shuffled_by_photo(smp, rng, window=1024):
    """The samples' indices in a random order that keeps each photo's dice
    near each other: photos in random order, then shuffled within windows
    of window samples, so that a photo is decoded about once per pass."""
    by = {}
    for j, s in enumerate(smp):
        by.setdefault(s[0], []).append(j)
    photos = list(by)
    rng.shuffle(photos)
    order = [j for pi in photos for j in by[pi]]
    for i in range(0, len(order), window):
        w = order[i:i + window]
        rng.shuffle(w)
        order[i:i + window] = w
    return order


def batch_iter(photos, blobs, smp, rng, size, train=True, neg=0.0, invert=0.0, synth=0.0, by_photo=False, pip=0.4):
    """Batches of die views; with neg > 0, that share of the views is a
    NONE view near the die instead (a share pip of them a pip or corner of
    the die, see negative). In training, a share invert of the real
    views is inverted (light pips on a dark die) and a share synth of the
    views is a procedural d6 face. by_photo keeps each photo's dice near
    each other in the order (fewer decodes, less shuffled batches)."""
    order = list(range(len(smp)))
    if train and by_photo:
        order = shuffled_by_photo(smp, rng)
    elif train:
        rng.shuffle(order)
    cache = {}
    for i in range(0, len(order), size):
        xs, ys = [], []
        for j in order[i:i + size]:
            pi, c, cx, cy, w, h = smp[j]
            img = cache.get(pi)
            if img is None:
                img = cv2.imdecode(blobs[pi], cv2.IMREAD_COLOR)
                if len(cache) > 64:
                    cache.clear()
                cache[pi] = img
            H, W = img.shape[:2]
            a = None
            if neg and rng.random() < neg:
                a = negative(img, photos[pi], cx * W, cy * H, w * W, h * H, rng, pip)
                if a is not None:
                    c = NONE
            if a is None and train and synth and rng.random() < synth:
                a, c = pip_view(rng)
            elif a is None:
                a = crop(img, cx * W, cy * H, w * W, h * H, rng if train else None)
                if train and invert and rng.random() < invert:
                    a = 255 - a
            if train:
                a = photometric(a, rng)
            xs.append(tf.to_tensor(a))
            ys.append(c)
        yield torch.stack(xs), torch.tensor(ys)


def photometric(img, rng):
    f = img.astype(np.float32)
    if rng.random() < 0.4:
        f = np.repeat(f.mean(axis=2, keepdims=True), 3, axis=2)
    f *= np.array([rng.uniform(0.75, 1.25) for _ in range(3)], np.float32)
    f = (f - 128) * rng.uniform(0.6, 1.4) + 128 + rng.uniform(-40, 40)
    f = np.clip(f, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(0.4, 1.2))
    if rng.random() < 0.3:
        n = np.random.default_rng(rng.randrange(1 << 30)).normal(0, rng.uniform(2, 8), f.shape)
        f = np.clip(f.astype(np.float32) + n, 0, 255).astype(np.uint8)
    return f


class ArtBatches:
    """Batches of procedural faces: sets x faces x views."""

    def __init__(self, rng, families, sets=16, faces=4, views=2):
        self.rng, self.families = rng, families
        self.sets, self.faces, self.views = sets, faces, views

    def next(self):
        xs = []
        for _ in range(self.sets):
            style, fs = faceart.random_set(self.rng, self.rng.choice(self.families), max(self.faces, self.rng.randint(self.faces, 10)))
            for g in self.rng.sample(fs, self.faces):
                for _ in range(self.views):
                    xs.append(tf.to_tensor(faceart.view(style, g, self.rng)))
        return torch.stack(xs)


def proto_loss(emb, faces_per_batch, views, scale):
    """Each face's first view is its prototype; the others are matched
    against every prototype of the batch by cosine similarity."""
    e = F.normalize(emb, dim=1).view(faces_per_batch, views, -1)
    protos = e[:, 0]
    loss = 0.0
    for v in range(1, views):
        logits = scale * e[:, v] @ protos.t()
        loss = loss + F.cross_entropy(logits, torch.arange(faces_per_batch))
    return loss / (views - 1)


def few_shot(model, rng, family, sets=30, shots=5, queries=4):
    """5-shot reading of new sets of a family: right, confidently wrong
    (cosine margin), and all queries."""
    model.eval()
    right = total = 0
    with torch.no_grad():
        for _ in range(sets):
            style, fs = faceart.random_set(rng, family)
            views = [[tf.to_tensor(faceart.view(style, g, rng)) for _ in range(shots + queries)] for g in fs]
            x = torch.stack([v for vs in views for v in vs])
            e = F.normalize(model(x)[1], dim=1).view(len(fs), shots + queries, -1)
            protos = F.normalize(e[:, :shots].mean(1), dim=1)
            sim = e[:, shots:] @ protos.t()
            pred = sim.argmax(-1)
            right += int((pred == torch.arange(len(fs))[:, None]).sum())
            total += len(fs) * queries
    return right, total


def turned_probs(model, x, t):
    """The reader's probabilities of views x: the mean of the softmax at
    temperature t over the four quarter turns, as vision/dice reads."""
    return torch.stack([F.softmax(model(torch.rot90(x, k, (2, 3)))[0] / t, 1) for k in range(4)]).mean(0)


def calibrate(model, calib, neg=0.25, floor=0.9):
    """The temperature at which the reader's confidence on the calibration
    photos is honest (least negative log-likelihood), with the share right,
    sure-wrong and uncertain at the confidence floor before and after."""
    model.eval()
    blobs, smp = load_all(calib), samples(calib)
    xs, ys = [], []
    with torch.no_grad():
        for x, y in batch_iter(calib, blobs, smp, random.Random(5), 256, train=False, neg=neg):
            xs.append(torch.stack([model(torch.rot90(x, k, (2, 3)))[0] for k in range(4)]))
            ys.append(y)
    z, y = torch.cat(xs, 1), torch.cat(ys)

    def probs(t):
        return F.softmax(z / t, 2).mean(0)

    def report(t):
        p = probs(t)
        conf, pred = p.max(1)
        sure = conf >= floor
        n = len(y)
        return (100 * float(((pred == y) & sure).sum()) / n, 100 * float(((pred != y) & sure).sum()) / n,
                100 * float((~sure).sum()) / n, float(F.nll_loss(torch.log(p + 1e-9), y)))

    best = min((report(t)[3], t) for t in [0.3 + 0.05 * i for i in range(55)])[1]
    for name, t in (("before", 1.0), ("after", best)):
        r, w, u, nll = report(t)
        print(f"calibration {name}: temperature {t:.2f}, {len(y)} views of {len(calib)} photos: right {r:.2f}%, "
              f"sure-wrong {w:.2f}%, uncertain {u:.2f}% at {floor}, nll {nll:.4f}", flush=True)
    return best


def main():
    ap = common.arg_parser("faces", epochs=8, batch=64)
    ap.add_argument("--hold-out", default="letters", help="faceart family never trained on")
    ap.add_argument("--art-every", type=int, default=1, help="an art batch after every n real batches (0: none)")
    ap.add_argument("--limit", type=int, default=0, help="use only this many training and validation dice (a smoke test)")
    ap.add_argument("--invert", type=float, default=0.0, help="share of real training views inverted (light pips on a dark die)")
    ap.add_argument("--synth", type=float, default=0.0, help="share of training views that are procedural d6 faces")
    ap.add_argument("--neg", type=float, default=0.25, help="share of training views that are no die's top face")
    ap.add_argument("--pip-neg", type=float, default=0.4, help="share of those that are a pip or a corner of the die (see negative)")
    ap.add_argument("--arch", default="full", choices=ARCHS, help="the face network's body (see Faces)")
    ap.add_argument("--by-photo", action="store_true", help="order the training views photo by photo (see shuffled_by_photo)")
    ap.add_argument("--calib", action="store_true", help="set one training source photo in ten aside and fit the confidence's temperature on it before export")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    os.makedirs(args.work, exist_ok=True)
    allp = data.photos(args.data)
    train = [p for p in allp if p.split == "train"]
    calib = []
    if args.calib:
        calib = [p for p in train if data.is_calib(p)]
        train = [p for p in train if not data.is_calib(p)]
    if args.renders:
        train += data.renders(args.renders)
    val = [p for p in allp if p.split == "val"]
    tb, vb = load_all(train), load_all(val)
    ts, vs = samples(train), samples(val)
    if args.limit:
        ts, vs = ts[:args.limit], vs[:args.limit]
    torch.manual_seed(args.seed)
    model = Faces(arch=args.arch)
    scale = nn.Parameter(torch.tensor(10.0))
    opt = torch.optim.AdamW(list(model.parameters()) + [scale], lr=3e-3, weight_decay=1e-4)
    families = [f for f in faceart.FAMILIES if f != args.hold_out]
    steps = (len(ts) + args.batch - 1) // args.batch
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps * args.epochs, pct_start=0.1)
    start = 0
    s = common.load(args.work)
    if s is not None:
        model.load_state_dict(s["model"])
        scale.data.fill_(s.get("scale", 10.0))
        opt.load_state_dict(s["opt"])
        sched.load_state_dict(s["sched"])
        start = s["epoch"]
    for epoch in range(start, args.epochs):
        model.train()
        rng = random.Random(args.seed * 1000 + epoch)
        t0 = time.time()
        tot, tot_art, n = 0.0, 0.0, 0
        art = ArtBatches(random.Random(args.seed * 7919 + epoch), families)
        for x, y in batch_iter(train, tb, ts, rng, args.batch, neg=args.neg, invert=args.invert, synth=args.synth, by_photo=args.by_photo, pip=args.pip_neg):
            logits, _ = model(x)
            loss = F.cross_entropy(logits, y)
            if args.art_every and n % args.art_every == 0:
                _, e = model(art.next())
                la = proto_loss(e, art.sets * art.faces, art.views, scale)
                loss = loss + la
                tot_art += la.item()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += loss.item()
            n += 1
        model.eval()
        right = {}
        with torch.no_grad():
            for x, y in batch_iter(val, vb, vs, rng, 256, train=False):
                pred = model(x)[0].argmax(1)
                right.setdefault("all", [0, 0])
                right["all"][0] += int((pred == y).sum())
                right["all"][1] += len(y)
        r = right["all"]
        rejected = total = 0
        with torch.no_grad():
            for x, y in batch_iter(val, vb, vs[::10], random.Random(args.seed), 256, train=False, neg=1.0):
                pred = model(x)[0].argmax(1)
                keep = y == NONE
                rejected += int((pred[keep] == NONE).sum())
                total += int(keep.sum())
        fr, ft = 0, 0
        if args.art_every:
            # Without art batches the embedding is not trained: nothing to measure.
            fr, ft = few_shot(model, random.Random(args.seed * 31 + epoch), args.hold_out)
        print(f"epoch {epoch + 1}/{args.epochs}: loss {tot / max(n, 1):.4f} (art {tot_art / max(n, 1):.4f}) "
              f"real d6 val {100 * r[0] / r[1]:.2f}%, not-a-face views rejected {100 * rejected / max(total, 1):.2f}%, 5-shot {args.hold_out} {100 * fr / max(ft, 1):.2f}% ({time.time() - t0:.0f} s)", flush=True)
        common.save(args.work, model=model.state_dict(), scale=float(scale), opt=opt.state_dict(), sched=sched.state_dict(), epoch=epoch + 1)
    if calib:
        t = calibrate(model, calib)
        # The temperature goes into the class head's weights: the exported
        # graph stays the same and the reader's softmax is calibrated.
        with torch.no_grad():
            model.cls.weight /= t
            model.cls.bias /= t
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        onnxio.export(model, EXPORT_SHAPE, os.path.join(args.out, "faces.onnx"), ["logits", "embedding"])
        print("wrote", os.path.join(args.out, "faces.onnx"))


if __name__ == "__main__":
    main()
