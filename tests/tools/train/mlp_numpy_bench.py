#!/usr/bin/python3
"""The numpy/OpenBLAS baseline of ipu-train's MLP throughput.

Usage: mlp_numpy_bench.py DUMP_DIR EPOCHS LR

Trains the same MLP (64-128-10, ReLU, mean cross-entropy, SGD with momentum
0.9) in float32 from the initial weights and on the batches that
`ipu-train --dump DUMP_DIR` used (loss_ref.py's math), EPOCHS times over
the dumped epoch orders, and prints the steady samples/s (the median epoch,
the first excluded when there are more than two, as on the device) as JSON:
{"samples_per_s": ..., "epochs": [...]}. Only the steps are timed, the
batches are gathered beforehand (the device gets them ready-made too).
"""
import json
import sys
import time

import numpy as np

from loss_ref import CLASSES, MOMENTUM, forward_backward


def main():
    dump, epochs, lr = sys.argv[1], int(sys.argv[2]), np.float32(sys.argv[3])
    names = ["fc1_w", "fc1_b", "fc2_w", "fc2_b"]
    w = {k: np.load(f"{dump}/init_{k}.npy") for k in names}
    v = {k: np.zeros_like(w[k]) for k in names}
    xs = np.load(f"{dump}/x_train.npy")
    ys = np.load(f"{dump}/y_train.npy")
    order = np.load(f"{dump}/order.npy")
    steps = np.load(f"{dump}/loss.npy").shape[1]
    batch = order.shape[1] // steps
    eye = np.eye(CLASSES, dtype=np.float32)
    rates = []
    for e in range(epochs):
        o = order[e % order.shape[0]]
        batches = [(xs[o[k * batch:(k + 1) * batch]], eye[ys[o[k * batch:(k + 1) * batch]]])
                   for k in range(steps)]
        t0 = time.perf_counter()
        for x, t in batches:
            _, g = forward_backward("mlp", w, x, t)
            for k in names:
                v[k] = MOMENTUM * v[k] + g[k]
                w[k] -= lr * v[k]
        rates.append(steps * batch / (time.perf_counter() - t0))
    steady = rates[1:] if len(rates) > 2 else rates
    print(json.dumps({"samples_per_s": float(np.median(steady)), "epochs": rates,
                      "dtype": str(w["fc1_w"].dtype)}))


if __name__ == "__main__":
    main()
