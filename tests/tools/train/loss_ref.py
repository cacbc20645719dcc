#!/usr/bin/python3
"""The loss of ipu-train's first steps, recomputed with numpy.

Usage: loss_ref.py DUMP_DIR MODEL LR STEPS TOLERANCE

DUMP_DIR is what `ipu-train --dump DIR` wrote: the initial weights
(init_*.npy), the training split (x_train.npy, y_train.npy), each epoch's
batch order (order.npy) and the loss of every step (loss.npy). This script
starts from the same weights, feeds the same batches and runs the same math
in float64 (forward, mean cross-entropy, backward, SGD with momentum 0.9,
PyTorch's convention), then checks that each of the first STEPS losses of
the device is within TOLERANCE (relative) of its own. Prints one line per
checked step as a KTAP comment and the largest relative difference; exits 1
when a step is off.
"""
import sys

import numpy as np

MOMENTUM = 0.9
CLASSES = 10


def forward_backward(model, w, x, t):
    """Loss and gradients of one batch (float64)."""
    n = x.shape[0]
    if model == "softmax":
        layers = [("fc", x)]
        logits = x @ w["fc_w"] + w["fc_b"]
    else:
        z1 = x @ w["fc1_w"] + w["fc1_b"]
        h = np.maximum(z1, 0.0)
        layers = [("fc1", x), ("fc2", h)]
        logits = h @ w["fc2_w"] + w["fc2_b"]
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_sm = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    loss = -(t * log_sm).sum() / n
    d = (np.exp(log_sm) - t) / n
    grads = {}
    for i in range(len(layers) - 1, -1, -1):
        name, inp = layers[i]
        grads[name + "_w"] = inp.T @ d
        grads[name + "_b"] = d.sum(axis=0)
        if i > 0:
            d = (d @ w[name + "_w"].T) * (inp > 0)  # through the ReLU
    return loss, grads


def main():
    dump, model, lr, steps, tol = sys.argv[1], sys.argv[2], float(sys.argv[3]), \
        int(sys.argv[4]), float(sys.argv[5])
    names = ["fc_w", "fc_b"] if model == "softmax" else \
        ["fc1_w", "fc1_b", "fc2_w", "fc2_b"]
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
