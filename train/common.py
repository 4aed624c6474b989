"""What the training scripts share: their common options and checkpoints
kept outside the repository, so that a stopped run resumes."""
import argparse
import os

import torch

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "data", "dice-real")


def arg_parser(name, epochs, batch):
    """Options every training script takes; name picks the default --work."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=DATA)
    ap.add_argument("--work", default=os.path.expanduser("~/.cache/tablecam-train/" + name))
    ap.add_argument("--out", default=None)
    ap.add_argument("--epochs", type=int, default=epochs)
    ap.add_argument("--batch", type=int, default=batch)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--renders", default="", help="a folder of rendered scenes (train/render) to train on as well")
    return ap


def load(work):
    """The checkpoint in work, or None."""
    ck = os.path.join(work, "checkpoint.pt")
    if not os.path.exists(ck):
        return None
    s = torch.load(ck)
    print(f"resumed after epoch {s['epoch']}", flush=True)
    return s


def save(work, **state):
    """Writes the checkpoint whole or not at all."""
    ck = os.path.join(work, "checkpoint.pt")
    tmp = ck + ".tmp"
    torch.save(state, tmp)
    os.replace(tmp, ck)
