"""The mean of several snapshots' policy weights, as one MaskablePPO checkpoint.

    python docs/benchmarks/learning/long-2026-12-06/average.py OUT.zip SNAPSHOT.zip ...

Snapshots of one run, 500k steps apart, wander about the run's trend (docs/learning.md,
"Longer, and search over it"); the mean of their weights (stochastic weight averaging, Izmailov
et al. 2018, here over PPO snapshots) is one policy in the middle of that band. Writes the
last snapshot's zip with its ``policy.pth`` replaced by the element-wise mean of every
snapshot's (floating tensors only; the others must be equal) and its optimizer's state
emptied (its settings kept: playing never reads it, as in the zoo's compact files). Tensors are read with ``torch.load(weights_only=True)``: nothing in a
snapshot is unpickled as code. The mean is the package's
(:func:`primeval.training.ppo.select.mean_weights`, float tensors averaged in float32);
``primeval train`` and ``primeval select`` offer it as a candidate with ``select.average: K``.
"""

from __future__ import annotations

import io
import sys
import zipfile

import torch

from primeval.training.ppo.select import mean_weights


def average(out: str, snapshots: list[str]) -> None:
    """Write to ``out`` the last of ``snapshots`` with the mean of their policies' weights."""
    if len(snapshots) < 2:
        raise SystemExit("average.py: give at least two snapshots")
    weights = []
    for path in snapshots:
        with zipfile.ZipFile(path) as z:
            weights.append(torch.load(io.BytesIO(z.read("policy.pth")), weights_only=True))
    try:
        mean = mean_weights(weights)  # the package's, as select.average takes the mean
    except ValueError as exc:
        raise SystemExit(f"average.py: {', '.join(snapshots)}: {exc}") from None
    with (
        zipfile.ZipFile(snapshots[-1]) as zin,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout,
    ):
        for info in zin.infolist():
            data = zin.read(info.filename)
            if info.filename == "policy.pth":
                data = _saved(mean)
            elif info.filename == "policy.optimizer.pth":
                optimizer = torch.load(io.BytesIO(data), weights_only=True)
                data = _saved({**optimizer, "state": {}})
            zout.writestr(info.filename, data)


def _saved(obj: object) -> bytes:
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    return buffer.getvalue()


if __name__ == "__main__":
    average(sys.argv[1], sys.argv[2:])
