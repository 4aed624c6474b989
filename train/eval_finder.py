"""Measures the die finder on the validation photos of data.py, per rig:
dice found (a detection whose centre lies in the labelled box, one each),
and detections that match no die.

    /usr/bin/python3 train/eval_finder.py [--checkpoint PATH] [--threshold 0.3]
"""
import argparse
import collections
import os
import sys

import cv2
import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import data  # noqa: E402
import nets  # noqa: E402
import train_finder as tf  # noqa: E402


def letterbox(img, W, H):
    h, w = img.shape[:2]
    s = min(W / w, H / h)
    nw, nh = int(round(w * s)), int(round(h * s))
    out = np.zeros((H, W, 3), np.uint8)
    out[:] = 114
    r = cv2.resize(img, (nw, nh), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    x0, y0 = (W - nw) // 2, (H - nh) // 2
    out[y0:y0 + nh, x0:x0 + nw] = r
    return out, s, x0, y0


def decode(heat, box, thr):
    """Peaks of the heatmap (3x3 local maxima over thr) as boxes in input pixels."""
    h = heat[0, 0]
    m = F.max_pool2d(heat, 3, 1, 1)[0, 0]
    ys, xs = torch.nonzero((h == m) & (h > thr), as_tuple=True)
    out = []
    for y, x in zip(ys.tolist(), xs.tolist()):
        lw, lh, ox, oy = box[0, :, y, x].tolist()
        w, hh = np.exp(lw) * tf.STRIDE, np.exp(lh) * tf.STRIDE
        cx, cy = (x + ox) * tf.STRIDE, (y + oy) * tf.STRIDE
        out.append((float(h[y, x]), cx, cy, w, hh))
    return out


def evaluate(model, photos, thr, scale_to=None):
    stats = collections.defaultdict(lambda: [0, 0, 0])  # dice, found, false
    model.eval()
    W, H = tf.EXPORT_SHAPE[3], tf.EXPORT_SHAPE[2]
    for p in photos:
        img = cv2.imread(p.path, cv2.IMREAD_COLOR)
        ih, iw = img.shape[:2]
        lb, s, x0, y0 = letterbox(img, W, H)
        with torch.no_grad():
            heat, box = model(tf.to_tensor(lb)[None])
        dets = [(sc, (cx - x0) / s, (cy - y0) / s, w / s, h / s) for sc, cx, cy, w, h in decode(heat, box, thr)]
        used = set()
        st = stats[p.rig]
        for _, cx, cy, w, h in p.boxes:
            st[0] += 1
            bx0, bx1 = (cx - w / 2) * iw, (cx + w / 2) * iw
            by0, by1 = (cy - h / 2) * ih, (cy + h / 2) * ih
            for i, (_, dx, dy, _, _) in enumerate(dets):
                if i not in used and bx0 <= dx <= bx1 and by0 <= dy <= by1:
                    used.add(i)
                    st[1] += 1
                    break
        st[2] += len(dets) - len(used)
    return stats


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=common.DATA)
    ap.add_argument("--checkpoint", default=os.path.expanduser("~/.cache/tablecam-train/finder/checkpoint.pt"))
    ap.add_argument("--threshold", type=float, default=0.3)
    ap.add_argument("--split", default="val")
    ap.add_argument("--every", type=int, default=1, help="use every n-th photo")
    args = ap.parse_args()
    torch.set_num_threads(1)
    model = nets.Finder()
    model.load_state_dict(torch.load(args.checkpoint)["model"])
    photos = [p for p in data.photos(args.data) if p.split == args.split][::args.every]
    for rig, (n, found, false) in sorted(evaluate(model, photos, args.threshold).items()):
        print(f"{rig:8s} dice {n:5d} found {100 * found / max(n, 1):6.2f}%  extra detections {false}")


if __name__ == "__main__":
    main()
