"""Measures the face reader on the labelled die crops of the validation
photos of data.py, per rig: right, and wrong at or above a confidence.

    /usr/bin/python3 train/eval_faces.py [--checkpoint PATH] [--min-conf 0.9]
"""
import argparse
import collections
import os
import random
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import data  # noqa: E402
import train_faces as T  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=common.DATA)
    ap.add_argument("--checkpoint", default=os.path.expanduser("~/.cache/tablecam-train/faces/checkpoint.pt"))
    ap.add_argument("--min-conf", type=float, default=0.9)
    args = ap.parse_args()
    torch.set_num_threads(1)
    model = T.Faces()
    model.load_state_dict(torch.load(args.checkpoint)["model"])
    model.eval()
    val = [p for p in data.photos(args.data) if p.split == "val"]
    blobs = T.load_all(val)
    smp = T.samples(val)
    st = collections.defaultdict(lambda: [0, 0, 0, 0])  # n, right, sure-wrong, unsure
    i = 0
    with torch.no_grad():
        for x, y in T.batch_iter(val, blobs, smp, random.Random(0), 256, train=False):
            p = F.softmax(model(x)[0], 1)
            conf, pred = p.max(1)
            for k in range(len(y)):
                rig = val[smp[i + k][0]].rig
                s = st[rig]
                s[0] += 1
                if conf[k] < args.min_conf:
                    s[3] += 1
                elif pred[k] == y[k]:
                    s[1] += 1
                else:
                    s[2] += 1
            i += len(y)
    for rig, (n, r, w, u) in sorted(st.items()):
        print(f"{rig:8s} crops {n:5d}  right {100 * r / n:6.2f}%  sure-wrong {100 * w / n:5.2f}%  uncertain {100 * u / n:6.2f}%")


if __name__ == "__main__":
    main()
