"""Export helpers that keep models inside what OpenCV 4.6's ONNX importer reads.

OpenCV 4.6 reads opset 12 with fixed input sizes. It does not follow
Identity nodes that carry weights (torch emits them for shared
parameters), so they are folded away after export.
"""
import io

import onnx
import torch


def strip_identities(model):
    """Replace every Identity node by renaming its output to its input."""
    g = model.graph
    graph_outputs = {o.name for o in g.output}
    rename = {}
    keep = []
    for node in g.node:
        if node.op_type == "Identity" and node.output[0] not in graph_outputs:
            rename[node.output[0]] = node.input[0]
            continue
        keep.append(node)
    if not rename:
        return model

    def resolve(name):
        while name in rename:
            name = rename[name]
        return name

    for node in keep:
        for i, name in enumerate(node.input):
            node.input[i] = resolve(name)
    del g.node[:]
    g.node.extend(keep)
    return model


def export(model, shape, path, output_names):
    """Export model (in eval mode) for one input of the given NCHW shape."""
    model.eval()
    x = torch.zeros(*shape)
    buf = io.BytesIO()
    torch.onnx.export(model, x, buf, opset_version=12, do_constant_folding=True,
                      input_names=["input"], output_names=output_names)
    m = onnx.load_from_string(buf.getvalue())
    m = strip_identities(m)
    onnx.checker.check_model(m)
    onnx.save(m, path)
    return m
