"""Trains the die finder on the real photos (train split of data.py).

    /usr/bin/python3 train/train_finder.py --out vision/dice/models --work ~/.cache/tablecam-train/finder

Checkpoints go to --work after every epoch; a run that is stopped resumes
from the last one. The finished model is exported to ONNX in --out.
"""
import math
import os
import random
import sys
import time

import cv2
import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import data  # noqa: E402
import nets  # noqa: E402
import onnxio  # noqa: E402

CROP = 320
STRIDE = 4
EXPORT_SHAPE = (1, 3, 384, 640)


def gaussian_radius(w, h):
    # A centre within a third of the box's smaller side still overlaps it
    # well; the Gaussian spreads the target that far.
    return max(1.0, 0.3 * min(w, h))


def draw_gaussian(heat, cx, cy, r):
    h, w = heat.shape
    x0, x1 = max(0, int(cx - 3 * r)), min(w, int(cx + 3 * r) + 2)
    y0, y1 = max(0, int(cy - 3 * r)), min(h, int(cy + 3 * r) + 2)
    if x0 >= x1 or y0 >= y1:
        return
    ys, xs = np.mgrid[y0:y1, x0:x1]
    g = np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * r * r))
    heat[y0:y1, x0:x1] = np.maximum(heat[y0:y1, x0:x1], g)


def augment_photo(img, boxes, rng, max_die=72):
    """A random CROP x CROP view of a photo with its boxes in pixels."""
    H, W = img.shape[:2]
    px = [(c, cx * W, cy * H, w * W, h * H) for c, cx, cy, w, h in boxes]
    sizes = [math.sqrt(w * h) for _, _, _, w, h in px] or [40.0]
    # Dice from 10 to max_die pixels across, the range a table camera gives.
    target = math.exp(rng.uniform(math.log(10), math.log(max_die)))
    s = target / float(np.median(sizes))
    s = min(max(s, 0.08), 3.0)
    # Aspect changes undo some of Roboflow's stretching, and add some.
    sx = s * math.exp(rng.uniform(-0.2, 0.2))
    sy = s * math.exp(rng.uniform(-0.2, 0.2))
    img = cv2.resize(img, (max(1, int(W * sx)), max(1, int(H * sy))), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    px = [(c, cx * sx, cy * sy, w * sx, h * sy) for c, cx, cy, w, h in px]
    H, W = img.shape[:2]
    # Centre the crop on a die most of the time, so that crops hold dice.
    if px and rng.random() < 0.8:
        _, cx, cy, _, _ = px[rng.randrange(len(px))]
        x0 = int(cx - rng.uniform(0.15, 0.85) * CROP)
        y0 = int(cy - rng.uniform(0.15, 0.85) * CROP)
    else:
        x0 = rng.randint(min(0, W - CROP), max(0, W - CROP))
        y0 = rng.randint(min(0, H - CROP), max(0, H - CROP))
    out = np.zeros((CROP, CROP, 3), np.uint8)
    fill = img.reshape(-1, 3)[rng.randrange(H * W)] if rng.random() < 0.5 else img.mean(axis=(0, 1))
    out[:] = fill
    sx0, sy0 = max(0, x0), max(0, y0)
    sx1, sy1 = min(W, x0 + CROP), min(H, y0 + CROP)
    if sx1 > sx0 and sy1 > sy0:
        out[sy0 - y0:sy1 - y0, sx0 - x0:sx1 - x0] = img[sy0:sy1, sx0:sx1]
    px = [(c, cx - x0, cy - y0, w, h) for c, cx, cy, w, h in px]
    # Quarter turns and mirrors: dice have no up.
    k = rng.randrange(4)
    if k:
        out = np.ascontiguousarray(np.rot90(out, k))
        for _ in range(k):
            px = [(c, cy, CROP - cx, h, w) for c, cx, cy, w, h in px]
    if rng.random() < 0.5:
        out = np.ascontiguousarray(out[:, ::-1])
        px = [(c, CROP - cx, cy, w, h) for c, cx, cy, w, h in px]
    out = photometric(out, rng)
    return out, px


def photometric(img, rng):
    f = img.astype(np.float32)
    if rng.random() < 0.4:
        g = f.mean(axis=2, keepdims=True)
        f = np.repeat(g, 3, axis=2)
    # White balance, gain and contrast.
    f *= np.array([rng.uniform(0.75, 1.25) for _ in range(3)], np.float32)
    f = (f - 128) * rng.uniform(0.6, 1.4) + 128 + rng.uniform(-50, 50)
    if rng.random() < 0.3:
        # A light gradient across the view.
        ramp = np.linspace(rng.uniform(0.6, 1.0), rng.uniform(1.0, 1.4), CROP, dtype=np.float32)
        f *= (ramp[None, :, None] if rng.random() < 0.5 else ramp[:, None, None])
    f = np.clip(f, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        s = rng.uniform(0.5, 1.6)
        f = cv2.GaussianBlur(f, (0, 0), s)
    if rng.random() < 0.3:
        n = np.random.default_rng(rng.randrange(1 << 30)).normal(0, rng.uniform(2, 10), f.shape)
        f = np.clip(f.astype(np.float32) + n, 0, 255).astype(np.uint8)
    if rng.random() < 0.4:
        ok, enc = cv2.imencode(".jpg", f, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(35, 90)])
        f = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return f


def targets(px):
    n = CROP // STRIDE
    heat = np.zeros((n, n), np.float32)
    box = np.zeros((4, n, n), np.float32)
    mask = np.zeros((n, n), np.float32)
    for _, cx, cy, w, h in px:
        if not (0 <= cx < CROP and 0 <= cy < CROP) or w < 2 or h < 2:
            continue
        gx, gy = cx / STRIDE, cy / STRIDE
        ix, iy = int(gx), int(gy)
        draw_gaussian(heat, gx, gy, gaussian_radius(w / STRIDE, h / STRIDE))
        heat[iy, ix] = 1.0
        box[:, iy, ix] = (math.log(w / STRIDE), math.log(h / STRIDE), gx - ix, gy - iy)
        mask[iy, ix] = 1.0
    return heat, box, mask


def to_tensor(img):
    # BGR uint8 -> RGB float in 0..1, NCHW: the Go side does the same.
    return torch.from_numpy(img[:, :, ::-1].transpose(2, 0, 1).copy()).float() / 255.0


def focal_loss(pred, gt):
    pred = pred.clamp(1e-4, 1 - 1e-4)
    pos = gt.eq(1).float()
    neg = 1 - pos
    pos_loss = torch.log(pred) * (1 - pred) ** 2 * pos
    neg_loss = torch.log(1 - pred) * pred ** 2 * (1 - gt) ** 4 * neg
    n = pos.sum().clamp(min=1)
    return -(pos_loss.sum() + neg_loss.sum()) / n


def batches(photos, rng, size, max_die=72):
    order = list(range(len(photos)))
    rng.shuffle(order)
    for i in range(0, len(order) - size + 1, size):
        imgs, heats, boxes, masks = [], [], [], []
        for j in order[i:i + size]:
            p = photos[j]
            img = cv2.imread(p.path, cv2.IMREAD_COLOR)
            a, px = augment_photo(img, p.boxes, rng, max_die)
            h, b, m = targets(px)
            imgs.append(to_tensor(a))
            heats.append(torch.from_numpy(h))
            boxes.append(torch.from_numpy(b))
            masks.append(torch.from_numpy(m))
        yield torch.stack(imgs), torch.stack(heats)[:, None], torch.stack(boxes), torch.stack(masks)[:, None]


def main():
    ap = common.arg_parser("finder", epochs=12, batch=16)
    ap.add_argument("--limit", type=int, default=0, help="use only this many training photos (a smoke test)")
    ap.add_argument("--max-die", type=float, default=72, help="the largest die, in input pixels, views are scaled to")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    os.makedirs(args.work, exist_ok=True)
    photos = [p for p in data.photos(args.data) if p.split == "train"]
    if args.renders:
        photos += data.renders(args.renders)
    if args.limit:
        photos = photos[:args.limit]
    torch.manual_seed(args.seed)
    model = nets.Finder()
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    steps_per_epoch = len(photos) // args.batch
    total = steps_per_epoch * args.epochs
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=2e-3, total_steps=max(total, 1), pct_start=0.1)
    start = 0
    s = common.load(args.work)
    if s is not None:
        model.load_state_dict(s["model"])
        opt.load_state_dict(s["opt"])
        sched.load_state_dict(s["sched"])
        start = s["epoch"]
    for epoch in range(start, args.epochs):
        model.train()
        rng = random.Random(args.seed * 1000 + epoch)
        t0 = time.time()
        tot = [0.0, 0.0, 0]
        for x, heat, box, mask in batches(photos, rng, args.batch, args.max_die):
            ph, pb = model(x)
            lh = focal_loss(ph, heat)
            lb = (torch.abs(pb - box) * mask).sum() / mask.sum().clamp(min=1) / 4
            loss = lh + lb
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot[0] += lh.item()
            tot[1] += lb.item()
            tot[2] += 1
        print(f"epoch {epoch + 1}/{args.epochs}: heat {tot[0] / max(tot[2], 1):.4f} box {tot[1] / max(tot[2], 1):.4f} "
              f"({time.time() - t0:.0f} s)", flush=True)
        common.save(args.work, model=model.state_dict(), opt=opt.state_dict(), sched=sched.state_dict(), epoch=epoch + 1)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        onnxio.export(model, EXPORT_SHAPE, os.path.join(args.out, "finder.onnx"), ["heat", "box"])
        print("wrote", os.path.join(args.out, "finder.onnx"))


if __name__ == "__main__":
    main()
