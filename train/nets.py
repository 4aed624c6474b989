"""The learned readers' networks: small, fully convolutional, built only from
layers OpenCV 4.6's ONNX importer reads (see probe.py)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_bn(cin, cout, k=3, stride=1, groups=1):
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, k // 2, groups=groups, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class Separable(nn.Module):
    """Depthwise 3x3 then pointwise 1x1, with a residual when shapes agree."""

    def __init__(self, cin, cout, stride=1):
        super().__init__()
        self.dw = conv_bn(cin, cin, 3, stride, groups=cin)
        self.pw = conv_bn(cin, cout, 1)
        self.res = stride == 1 and cin == cout

    def forward(self, x):
        y = self.pw(self.dw(x))
        return x + y if self.res else y


def stage(cin, cout, n):
    return nn.Sequential(Separable(cin, cout, 2), *[Separable(cout, cout) for _ in range(n - 1)])


class Finder(nn.Module):
    """Finds die tops: a centre heatmap per die type at a quarter of the input's
    resolution, with each centre's box size (log of width and height in
    output cells) and sub-cell offset. Decoding (peaks, boxes) is done in Go."""

    def __init__(self, types=1, width=(16, 24, 40, 64, 96)):
        super().__init__()
        w = width
        self.stem = conv_bn(3, w[0], 3, 2)               # /2
        self.s4 = stage(w[0], w[1], 2)                   # /4
        self.s8 = stage(w[1], w[2], 3)                   # /8
        self.s16 = stage(w[2], w[3], 3)                  # /16
        self.s32 = stage(w[3], w[4], 2)                  # /32
        self.lat16 = conv_bn(w[4] + w[3], w[2], 1)
        self.lat8 = conv_bn(w[2] + w[2], w[1], 1)
        self.lat4 = conv_bn(w[1] + w[1], w[1], 1)
        self.head = nn.Sequential(Separable(w[1], w[1]), Separable(w[1], w[1]))
        self.heat = nn.Conv2d(w[1], types, 1)
        self.box = nn.Conv2d(w[1], 4, 1)
        nn.init.constant_(self.heat.bias, -4.0)

    def forward(self, x):
        x = self.stem(x)
        f4 = self.s4(x)
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        f32 = self.s32(f16)
        y = self.lat16(torch.cat([F.interpolate(f32, scale_factor=2.0, mode="nearest"), f16], 1))
        y = self.lat8(torch.cat([F.interpolate(y, scale_factor=2.0, mode="nearest"), f8], 1))
        y = self.lat4(torch.cat([F.interpolate(y, scale_factor=2.0, mode="nearest"), f4], 1))
        y = self.head(y)
        return torch.sigmoid(self.heat(y)), self.box(y)
