"""Teaches the face reader's embedding what "a face" is, so that a die the
group teaches is read by its nearest taught prototype with no retraining.

It trains the whole face network (from scratch, or on from a checkpoint of
train_faces.py with --init) with two losses side by side:
- the d6 classes on the real photos and the rendered d6 dice, with views
  that are no die's top face, as train_faces.py;
- prototypes: in each batch, faces of many sets are seen twice, and each
  second view must be nearest the first view of its own face among all the
  batch's faces (cosine similarity at a learnt scale). The faces are the
  rendered dice of train/render (every set and style it draws for
  training: the held-out style never) and procedural face sets of
  faceart.py (every family but --hold-out).

The last step fits the confidence's temperature on calibration photos, as
train_faces.py does, and writes faces.onnx and the prototype scale.

    /usr/bin/python3 train/train_embed.py --init ~/.cache/tablecam-train/faces/checkpoint.pt \
        --renders DIR --work ~/.cache/tablecam-train/embed --out DIR
"""
import collections
import json
import os
import random
import sys
import time

import cv2
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import data  # noqa: E402
import faceart  # noqa: E402
import train_faces as T  # noqa: E402
import train_finder as tf  # noqa: E402


def render_faces(root):
    """The rendered dice of root grouped by face: {set:face: [(photo index,
    cx, cy, w, h)]}, and the photos' paths."""
    paths, groups = [], collections.defaultdict(list)
    for lab in sorted(os.listdir(root)):
        if not lab.endswith(".txt"):
            continue
        img = os.path.join(root, lab[:-4] + ".jpg")
        if not os.path.exists(img):
            continue
        pi = len(paths)
        paths.append(img)
        with open(os.path.join(root, lab)) as f:
            for line in f:
                p = line.split()
                if len(p) != 7:
                    continue
                groups[p[0] + ":" + p[1]].append((pi, *map(float, p[3:])))
    return paths, {k: v for k, v in groups.items() if len(v) >= 2}


class RenderBatches:
    """Prototype batches of rendered faces: faces x 2 views, each view from
    another scene. Each die is cut out once, with room to turn and jitter,
    at a scale where its larger side is CUT_DIE pixels: decoding a scene
    per view is what a batch would otherwise spend its time on."""

    CUT_DIE = 48
    CUT_ROOM = 2.2

    def __init__(self, root, rng, faces=24):
        import numpy as np
        paths, groups = render_faces(root)
        self.keys = sorted(groups)
        self.cuts = {k: [] for k in self.keys}
        by_photo = collections.defaultdict(list)
        for k, v in groups.items():
            for pi, cx, cy, w, h in v:
                by_photo[pi].append((k, cx, cy, w, h))
        for pi, dice in sorted(by_photo.items()):
            img = cv2.imdecode(np.fromfile(paths[pi], np.uint8), cv2.IMREAD_COLOR)
            H, W = img.shape[:2]
            for k, cx, cy, w, h in dice:
                cx, cy, w, h = cx * W, cy * H, w * W, h * H
                s = self.CUT_DIE / max(w, h, 1)
                side = int(round(self.CUT_DIE * self.CUT_ROOM))
                M = np.float32([[s, 0, side / 2 - s * cx], [0, s, side / 2 - s * cy]])
                interp = cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
                cut = cv2.warpAffine(img, M, (side, side), flags=interp, borderMode=cv2.BORDER_REPLICATE)
                self.cuts[k].append((cut, side / 2, side / 2, w * s, h * s))
        self.rng, self.faces = rng, faces

    def next(self):
        """Two views of each of the batch's faces, and the faces' indices
        in keys."""
        xs, ks = [], []
        for k in self.rng.sample(self.keys, min(self.faces, len(self.keys))):
            for cut, cx, cy, w, h in self.rng.sample(self.cuts[k], 2):
                a = T.crop(cut, cx, cy, w, h, self.rng)
                xs.append(tf.to_tensor(T.photometric(a, self.rng)))
                ks.append(self.keys.index(k))
        return torch.stack(xs), len(xs) // 2, torch.tensor(ks)


def main():
    ap = common.arg_parser("embed", epochs=2, batch=64)
    ap.add_argument("--init", default="", help="a face reader's checkpoint to start from (default: train from scratch)")
    ap.add_argument("--arch", default="full", choices=T.ARCHS, help="the face network's body (see train_faces.Faces)")
    ap.add_argument("--hold-out", default="letters", help="faceart family never trained on")
    ap.add_argument("--art-every", type=int, default=4, help="a procedural art batch after every n render batches (0: none)")
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--neg", type=float, default=0.25)
    ap.add_argument("--invert", type=float, default=0.15)
    ap.add_argument("--synth", type=float, default=0.2)
    ap.add_argument("--limit", type=int, default=0, help="use only this many real dice (a smoke test)")
    ap.add_argument("--proto-only", action="store_true", help="train a separate embedding model (embed.onnx) on the prototype loss alone: no d6 classes, no real photos")
    ap.add_argument("--steps", type=int, default=400, help="with --proto-only: batches per epoch")
    ap.add_argument("--proxy", type=float, default=0.0, help="with --proto-only: weight of a cosine classifier over the rendered faces (one learnt proxy per set and face) beside the prototype loss")
    args = ap.parse_args()
    if not args.renders:
        ap.error("--renders is required: the rendered faces teach the embedding")
    if args.proto_only:
        proto_only(args)
        return
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    os.makedirs(args.work, exist_ok=True)
    allp = data.photos(args.data)
    train = [p for p in allp if p.split == "train" and not data.is_calib(p)]
    calib = [p for p in allp if data.is_calib(p)]
    val = [p for p in allp if p.split == "val"]
    vb, vs = T.load_all(val), T.samples(val)[::4]
    if args.renders:
        # The rendered d6 dice are read by the classifier as well.
        train += data.renders(args.renders)
    tb, ts = T.load_all(train), T.samples(train)
    if args.limit:
        ts = ts[:args.limit]
        calib = calib[:50]
    torch.manual_seed(args.seed)
    model = T.Faces(arch=args.arch)
    if args.init:
        model.load_state_dict(torch.load(args.init)["model"])
    scale = nn.Parameter(torch.tensor(10.0))
    opt = torch.optim.AdamW(list(model.parameters()) + [scale], lr=args.lr, weight_decay=1e-4)
    steps = (len(ts) + args.batch - 1) // args.batch
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=steps * args.epochs, pct_start=0.1)
    start = 0
    s = common.load(args.work)
    if s is not None:
        model.load_state_dict(s["model"])
        scale.data.fill_(s["scale"])
        opt.load_state_dict(s["opt"])
        sched.load_state_dict(s["sched"])
        start = s["epoch"]
    families = [f for f in faceart.FAMILIES if f != args.hold_out]
    rb = RenderBatches(args.renders, None)
    for epoch in range(start, args.epochs):
        model.train()
        rng = random.Random(args.seed * 1000 + epoch)
        rb.rng = random.Random(args.seed * 17 + epoch)
        art = T.ArtBatches(random.Random(args.seed * 7919 + epoch), families, sets=8, faces=4, views=2)
        t0 = time.time()
        tot_cls = tot_proto = 0.0
        n = 0
        for x, y in T.batch_iter(train, tb, ts, rng, args.batch, neg=args.neg, invert=args.invert, synth=args.synth, by_photo=True):
            loss = F.cross_entropy(model(x)[0], y)
            tot_cls += loss.item()
            if args.art_every and n % args.art_every == args.art_every - 1:
                xa = art.next()
                la = T.proto_loss(model(xa)[1], art.sets * art.faces, art.views, scale)
            else:
                xr, faces, _ = rb.next()
                la = T.proto_loss(model(xr)[1], faces, 2, scale)
            loss = loss + la
            tot_proto += la.item()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            n += 1
        model.eval()
        right = total = 0
        with torch.no_grad():
            for x, y in T.batch_iter(val, vb, vs, rng, 256, train=False):
                right += int((model(x)[0].argmax(1) == y).sum())
                total += len(y)
        fr, ft = T.few_shot(model, random.Random(args.seed * 31 + epoch), args.hold_out, sets=10)
        print(f"epoch {epoch + 1}/{args.epochs}: d6 loss {tot_cls / max(n, 1):.4f}, prototype loss {tot_proto / max(n, 1):.4f}, "
              f"scale {float(scale):.2f}, real d6 val {100 * right / max(total, 1):.2f}%, 5-shot {args.hold_out} {100 * fr / max(ft, 1):.2f}% ({time.time() - t0:.0f} s)", flush=True)
        common.save(args.work, model=model.state_dict(), scale=float(scale), opt=opt.state_dict(), sched=sched.state_dict(), epoch=epoch + 1)
    t = T.calibrate(model, calib)
    with torch.no_grad():
        model.cls.weight /= t
        model.cls.bias /= t
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        path = os.path.join(args.out, "faces.onnx")
        T.onnxio.export(model, T.EXPORT_SHAPE, path, ["logits", "embedding"])
        with open(os.path.join(args.out, "faces.json"), "w") as f:
            json.dump({"prototype_scale": float(scale), "temperature": t}, f)
        print("wrote", path, "prototype scale", float(scale))


def proto_only(args):
    """Trains the embedding of taught faces alone, as a model of its own:
    batches of rendered faces (two views of each of 24 faces, from
    different scenes) and, every --art-every batches, procedural face sets;
    the d6 reader keeps its own model."""
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    os.makedirs(args.work, exist_ok=True)
    torch.manual_seed(args.seed)
    model = T.Faces(arch=args.arch)
    if args.init:
        model.load_state_dict(torch.load(args.init)["model"])
    scale = nn.Parameter(torch.tensor(10.0))
    rb = RenderBatches(args.renders, None)
    proxies = nn.Parameter(torch.randn(len(rb.keys), model.emb.out_features) * 0.1)
    opt = torch.optim.AdamW(list(model.parameters()) + [scale, proxies], lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=args.steps * args.epochs, pct_start=0.1)
    start = 0
    s = common.load(args.work)
    if s is not None:
        model.load_state_dict(s["model"])
        scale.data.fill_(s["scale"])
        if "proxies" in s:
            proxies.data.copy_(s["proxies"])
        start = s["epoch"]
        if start < args.epochs:
            opt.load_state_dict(s["opt"])
            sched.load_state_dict(s["sched"])
    families = [f for f in faceart.FAMILIES if f != args.hold_out]
    for epoch in range(start, args.epochs):
        model.train()
        rb.rng = random.Random(args.seed * 17 + epoch)
        art = T.ArtBatches(random.Random(args.seed * 7919 + epoch), families, sets=8, faces=4, views=2)
        t0 = time.time()
        tot_r = tot_a = 0.0
        nr = na = 0
        for n in range(args.steps):
            if args.art_every and n % args.art_every == args.art_every - 1:
                xa = art.next()
                loss = T.proto_loss(model(xa)[1], art.sets * art.faces, art.views, scale)
                tot_a += loss.item()
                na += 1
            else:
                xr, faces, ks = rb.next()
                e = model(xr)[1]
                loss = T.proto_loss(e, faces, 2, scale)
                tot_r += loss.item()
                nr += 1
                if args.proxy:
                    logits = scale * F.normalize(e, dim=1) @ F.normalize(proxies, dim=1).t()
                    loss = loss + args.proxy * F.cross_entropy(logits, ks)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        fr, ft = T.few_shot(model, random.Random(args.seed * 31 + epoch), args.hold_out, sets=10)
        print(f"epoch {epoch + 1}/{args.epochs}: render prototype loss {tot_r / max(nr, 1):.4f}, art prototype loss {tot_a / max(na, 1):.4f}, "
              f"scale {float(scale):.2f}, 5-shot {args.hold_out} {100 * fr / max(ft, 1):.2f}% ({time.time() - t0:.0f} s)", flush=True)
        common.save(args.work, model=model.state_dict(), scale=float(scale), proxies=proxies.data, opt=opt.state_dict(), sched=sched.state_dict(), epoch=epoch + 1)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        path = os.path.join(args.out, "embed.onnx")
        T.onnxio.export(model, T.EXPORT_SHAPE, path, ["logits", "embedding"])
        print("wrote", path, "prototype scale", float(scale))


if __name__ == "__main__":
    main()
