#!/usr/bin/python3
"""The loss of ipu-train's first steps, recomputed with numpy.

Usage: loss_ref.py DUMP_DIR MODEL LR STEPS TOLERANCE (MODEL: softmax, mlp, cnn)

DUMP_DIR is what `ipu-train --dump DIR` wrote: the initial weights
(init_*.npy), the training split (x_train.npy, y_train.npy), each epoch's
batch order (order.npy) and the loss of every step (loss.npy). This script
starts from the same weights, feeds the same batches and runs the same math
in float64 (forward, mean cross-entropy, backward, SGD with momentum 0.9,
PyTorch's convention; the CNN's convolutions by im2col, its max pooling
sending each gradient to the first maximum of its window), then checks that each of the first STEPS losses of
the device is within TOLERANCE (relative) of its own. Prints one line per
checked step as a KTAP comment and the largest relative difference; exits 1
when a step is off.
"""
import sys

import numpy as np

MOMENTUM = 0.9
CLASSES = 10


def softmax_xent(logits, t):
    """Mean cross-entropy of a batch and its gradient by the logits."""
    n = logits.shape[0]
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_sm = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    return -(t * log_sm).sum() / n, (np.exp(log_sm) - t) / n


def dense_backward(w, grads, layers, d):
    """Backward through dense layers [(name, input)] with ReLUs between
    them (from their outputs); returns d loss / d the first input."""
    for i in range(len(layers) - 1, -1, -1):
        name, inp = layers[i]
        grads[name + "_w"] = inp.T @ d
        grads[name + "_b"] = d.sum(axis=0)
        d = d @ w[name + "_w"].T
        if i > 0:
            d = d * (inp > 0)  # through the ReLU
    return d


def im2col(x, k, pad):
    """x [N][C][H][W] -> columns [N][C*k*k][OH*OW], rows in (c, ky, kx)
    order (the weights' [Cout][C][k][k] flattened), stride 1."""
    n, c, h, wd = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh, ow = h + 2 * pad - k + 1, wd + 2 * pad - k + 1
    cols = np.empty((n, c, k, k, oh, ow))
    for ky in range(k):
        for kx in range(k):
            cols[:, :, ky, kx] = xp[:, :, ky:ky + oh, kx:kx + ow]
    return cols.reshape(n, c * k * k, oh * ow), (oh, ow)


def col2im(cols, shape, k, pad):
    """The adjoint of im2col: columns summed back into x's shape."""
    n, c, h, wd = shape
    oh, ow = h + 2 * pad - k + 1, wd + 2 * pad - k + 1
    cols = cols.reshape(n, c, k, k, oh, ow)
    xp = np.zeros((n, c, h + 2 * pad, wd + 2 * pad))
    for ky in range(k):
        for kx in range(k):
            xp[:, :, ky:ky + oh, kx:kx + ow] += cols[:, :, ky, kx]
    return xp[:, :, pad:pad + h, pad:pad + wd]


def conv_forward(x, w, b, pad):
    """PyTorch's conv2d (cross-correlation), stride 1, plus the bias."""
    cols, (oh, ow) = im2col(x, w.shape[2], pad)
    y = np.einsum("ok,nkp->nop", w.reshape(w.shape[0], -1), cols)
    return y.reshape(x.shape[0], w.shape[0], oh, ow) + b, cols


def conv_backward(x, cols, w, pad, dy):
    """(dx, dw, db) of conv_forward given dy."""
    dy2 = dy.reshape(dy.shape[0], dy.shape[1], -1)
    dw = np.einsum("nop,nkp->ok", dy2, cols).reshape(w.shape)
    db = dy.sum(axis=(0, 2, 3)).reshape(-1, 1, 1)
    dcols = np.einsum("ok,nop->nkp", w.reshape(w.shape[0], -1), dy2)
    return col2im(dcols, x.shape, w.shape[2], pad), dw, db


def maxpool_forward(x, k):
    """k x k windows, stride k: the maxima and, per window, the index of
    its first maximum in (ky, kx) order."""
    n, c, h, wd = x.shape
    win = x.reshape(n, c, h // k, k, wd // k, k).transpose(0, 1, 2, 4, 3, 5)
    win = win.reshape(n, c, h // k, wd // k, k * k)
    arg = win.argmax(axis=-1)
    return np.take_along_axis(win, arg[..., None], axis=-1)[..., 0], arg


def maxpool_backward(arg, shape, k, dy):
    """Each dy element to its window's first maximum."""
    n, c, h, wd = shape
    dwin = (np.arange(k * k) == arg[..., None]) * dy[..., None]
    dwin = dwin.reshape(n, c, h // k, wd // k, k, k).transpose(0, 1, 2, 4, 3, 5)
    return dwin.reshape(shape)


def cnn_forward_backward(w, x, t):
    """ipu-train's cnn: conv 1-8 3x3 pad 1, ReLU, pool 2; conv 8-16 3x3
    pad 1, ReLU, pool 2; flatten; dense 64-10."""
    img = x.reshape(-1, 1, 8, 8)
    z1, cols1 = conv_forward(img, w["conv1_w"], w["conv1_b"], 1)
    r1 = np.maximum(z1, 0.0)
    p1, arg1 = maxpool_forward(r1, 2)
    z2, cols2 = conv_forward(p1, w["conv2_w"], w["conv2_b"], 1)
    r2 = np.maximum(z2, 0.0)
    p2, arg2 = maxpool_forward(r2, 2)
    flat = p2.reshape(p2.shape[0], -1)
    loss, d = softmax_xent(flat @ w["fc_w"] + w["fc_b"], t)
    grads = {}
    d = dense_backward(w, grads, [("fc", flat)], d).reshape(p2.shape)
    d = maxpool_backward(arg2, r2.shape, 2, d) * (r2 > 0)
    d, grads["conv2_w"], grads["conv2_b"] = conv_backward(p1, cols2, w["conv2_w"], 1, d)
    d = maxpool_backward(arg1, r1.shape, 2, d) * (r1 > 0)
    _, grads["conv1_w"], grads["conv1_b"] = conv_backward(img, cols1, w["conv1_w"], 1, d)
    return loss, grads


def forward_backward(model, w, x, t):
    """Loss and gradients of one batch (float64)."""
    if model == "cnn":
        return cnn_forward_backward(w, x, t)
    if model == "softmax":
        layers = [("fc", x)]
        logits = x @ w["fc_w"] + w["fc_b"]
    else:
        h = np.maximum(x @ w["fc1_w"] + w["fc1_b"], 0.0)
        layers = [("fc1", x), ("fc2", h)]
        logits = h @ w["fc2_w"] + w["fc2_b"]
    loss, d = softmax_xent(logits, t)
    grads = {}
    dense_backward(w, grads, layers, d)
    return loss, grads


PARAMS = {
    "softmax": ["fc_w", "fc_b"],
    "mlp": ["fc1_w", "fc1_b", "fc2_w", "fc2_b"],
    "cnn": ["conv1_w", "conv1_b", "conv2_w", "conv2_b", "fc_w", "fc_b"],
}


def main():
    dump, model, lr, steps, tol = sys.argv[1], sys.argv[2], float(sys.argv[3]), \
        int(sys.argv[4]), float(sys.argv[5])
    names = PARAMS[model]
    w = {k: np.load(f"{dump}/init_{k}.npy").astype(np.float64) for k in names}
    v = {k: np.zeros_like(w[k]) for k in names}
    xs = np.load(f"{dump}/x_train.npy").astype(np.float64)
    ys = np.load(f"{dump}/y_train.npy")
    order = np.load(f"{dump}/order.npy")
    got = np.load(f"{dump}/loss.npy")
    per_epoch = got.shape[1]
    batch = order.shape[1] // per_epoch
    worst = 0.0
    bad = 0
    for s in range(steps):
        e, k = divmod(s, per_epoch)
        idx = order[e, k * batch:(k + 1) * batch]
        t = np.eye(CLASSES)[ys[idx]]
        loss, g = forward_backward(model, w, xs[idx], t)
        for name in names:
            v[name] = MOMENTUM * v[name] + g[name]
            w[name] = w[name] - lr * v[name]
        dev = float(got[e, k])
        rel = abs(dev - loss) / abs(loss)
        worst = max(worst, rel)
        ok = rel <= tol
        bad += not ok
        print(f"# step {s}: device {dev:.7f} numpy {loss:.7f} rel {rel:.2e}"
              f"{'' if ok else ' (over ' + str(tol) + ')'}")
    print(f"# max relative difference over {steps} steps: {worst:.2e} (tolerance {tol})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
