"""Writes the probe model that proves the ONNX path from PyTorch to Go.

The probe uses every kind of layer the readers are built from (strided and
depthwise convolutions with folded batch norm, ReLU, max pooling, nearest
upsampling, concatenation, sigmoid, global pooling and a linear layer) and
has two outputs. It writes the model, one
input and PyTorch's outputs for it; vision/dnn's tests check that OpenCV
gives the same numbers.

    /usr/bin/python3 train/probe.py vision/dnn/testdata
"""
import json
import os
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import onnxio  # noqa: E402


def block(cin, cout, stride=1, groups=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, groups=groups, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class Probe(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = block(3, 8, 2)
        self.dw = block(8, 8, 1, groups=8)
        self.down = block(8, 16, 2)
        self.pool = nn.MaxPool2d(3, 1, 1)
        self.fuse = block(24, 8)
        self.heat = nn.Conv2d(8, 2, 1)
        self.fc = nn.Linear(16, 6)

    def forward(self, x):
        a = self.dw(self.stem(x))
        b = self.pool(self.down(a))
        up = F.interpolate(b, scale_factor=2.0, mode="nearest")
        heat = torch.sigmoid(self.heat(self.fuse(torch.cat([a, up], 1))))
        v = F.adaptive_avg_pool2d(b, 1).flatten(1)
        # The embedding leaves the model unnormalised: OpenCV 4.6 cannot
        # import the broadcast division, and the reader normalises in Go.
        return heat, self.fc(v)


def main(out_dir):
    torch.manual_seed(7)
    m = Probe()
    # Non-trivial batch-norm statistics, so that folding them is tested.
    with torch.no_grad():
        for mod in m.modules():
            if isinstance(mod, nn.BatchNorm2d):
                mod.running_mean.uniform_(-0.5, 0.5)
                mod.running_var.uniform_(0.5, 2.0)
                mod.weight.uniform_(0.5, 1.5)
                mod.bias.uniform_(-0.2, 0.2)
    m.eval()
    shape = (1, 3, 32, 48)
    onnxio.export(m, shape, os.path.join(out_dir, "probe.onnx"), ["heat", "emb"])
    g = np.random.default_rng(11)
    x = g.uniform(0, 1, size=shape).astype(np.float32)
    with torch.no_grad():
        heat, emb = m(torch.from_numpy(x))
    x.tofile(os.path.join(out_dir, "probe_in.f32"))
    heat.numpy().astype(np.float32).tofile(os.path.join(out_dir, "probe_heat.f32"))
    emb.numpy().astype(np.float32).tofile(os.path.join(out_dir, "probe_emb.f32"))
    with open(os.path.join(out_dir, "probe.json"), "w") as f:
        json.dump({"input": list(shape), "heat": list(heat.shape), "emb": list(emb.shape)}, f)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
