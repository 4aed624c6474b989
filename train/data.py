"""The real labelled dice photos of ../shared/data/dice-real, grouped by rig and
source photo, and split so that validation never sees a training photo.

Rigs (how the photo was taken):
  cup    rune55 ids 00000-00199: grey fisheye close-ups of dice in a cup
  table  rune55 random ids: grey wide shots of small dice on a white table
  tray   rune55 PXL_*: colour phone photos of dice trays
  phone  rune55 IMG_*: grey phone photos of a few dice
  webcam matteo: oblique webcam frames of white dice on a wooden desk

Roboflow made up to three augmented copies of one source photo, spread over
its train/valid/test folders, so the split is by source photo (its id before
"_jpg"), never by file or by Roboflow's folders. Two rigs are held out whole
(webcam, phone): they measure a camera the models never saw. Of the other
rigs, one source photo in five (by a hash of its id) is held out as well.

Labels are YOLO boxes of whole dice; class k is the value k+1.
"""
import collections
import glob
import hashlib
import os
import re

HELD_OUT_RIGS = ("webcam", "phone")


def rig_of(dataset, source):
    if dataset == "matteo":
        return "webcam"
    if re.fullmatch(r"\d{5}", source):
        return "cup"
    if source.startswith("PXL_"):
        return "tray"
    if source.startswith("IMG_"):
        return "phone"
    return "table"


def split_of(rig, source):
    """'train' or 'val' for a source photo of a rig."""
    if rig in HELD_OUT_RIGS:
        return "val"
    h = hashlib.sha256(source.encode()).digest()[0]
    return "val" if h % 5 == 0 else "train"


def is_calib(p):
    """Whether a training photo is set aside to calibrate a model's
    confidence: one source photo in ten of the training split, by a second
    hash of its id, so that neither training nor validation sees it."""
    if p.split != "train" or p.rig == "render":
        return False
    return hashlib.sha256(("calib:" + p.source).encode()).digest()[0] % 10 == 0


Photo = collections.namedtuple("Photo", "path rig source split boxes")


def read_boxes(path):
    out = []
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) != 5:
                continue
            c, cx, cy, w, h = int(p[0]), *map(float, p[1:])
            out.append((c + 1, cx, cy, w, h))
    return out


def photos(root):
    """Every labelled photo under root (the dice-real folder)."""
    out = []
    for img in sorted(glob.glob(os.path.join(root, "rune55", "*", "images", "*.jpg"))):
        lab = img.replace(os.sep + "images" + os.sep, os.sep + "labels" + os.sep)[:-4] + ".txt"
        if not os.path.exists(lab):
            continue
        source = os.path.basename(img).split("_jpg")[0]
        rig = rig_of("rune55", source)
        out.append(Photo(img, rig, source, split_of(rig, source), read_boxes(lab)))
    for img in sorted(glob.glob(os.path.join(root, "matteo", "*.jpg"))):
        lab = img[:-4] + ".txt"
        if not os.path.exists(lab):
            continue
        # The webcam frames come from one session at one desk: one source.
        out.append(Photo(img, "webcam", "matteo", "val", read_boxes(lab)))
    return out


def renders(root):
    """Scenes of the project's renderer written by train/render (rig
    "render", always trained on: the renderer's held-out seeds and style
    measure it). A d6 die's class is its value; other dice have class 0
    (found by the finder, not named by the d6 classifier)."""
    out = []
    for lab in sorted(glob.glob(os.path.join(root, "*.txt"))):
        img = lab[:-4] + ".jpg"
        if not os.path.exists(img):
            continue
        boxes = []
        with open(lab) as f:
            for line in f:
                p = line.split()
                if len(p) != 7:
                    continue
                dset, value = p[0], int(p[2])
                c = value if dset == "d6" else 0
                boxes.append((c, *map(float, p[3:])))
        out.append(Photo(img, "render", os.path.basename(img)[:-4], "train", boxes))
    return out


def summary(ps):
    c = collections.Counter()
    d = collections.Counter()
    for p in ps:
        c[(p.rig, p.split)] += 1
        d[(p.rig, p.split)] += len(p.boxes)
    return {f"{r}/{s}": (c[(r, s)], d[(r, s)]) for r, s in sorted(c)}


if __name__ == "__main__":
    import sys
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data", "dice-real")
    for k, (n, dice) in summary(photos(root)).items():
        print(f"{k:14s} {n:5d} photos {dice:6d} dice")
