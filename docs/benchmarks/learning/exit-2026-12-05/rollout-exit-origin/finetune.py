"""Expert iteration's learning step for Origin: the apprentice learns the search's choices.

    python docs/benchmarks/learning/exit-2026-12-05/rollout-exit-origin/finetune.py \\
        labels-*.npz --out apprentice.zip [--net ZIP] [--epochs 8] [--lr 3e-5] [--z Z]

Fits the apprentice's policy (the residual PPO agent ``--net``, loaded without unpickling) to
the moves the rollout search played in ``label.py``'s files: cross-entropy over the masked
distribution, its value head untouched (``--z``: only the switches whose gain is above ``z``
standard errors are kept as switches, the rest labelled with the apprentice's own move). The games whose seed ends in 0 are held out; after
each epoch it prints the held-out loss and how often the apprentice's most likely move is
the search's, where the search kept the apprentice's move ("kept") and where it switched
("switched"). The epoch with the lowest held-out loss is the one saved (``--out``, a zip
``ppo:`` loads; ``--json`` writes the curve).
"""

from __future__ import annotations

import argparse
import copy
import json

import numpy as np
import torch as th

from primeval.training.agents.checkpoint import load_model, read_env_spec, save_model
from primeval.training.evaluate import write_json

ZIP = "training/benchmark/zoo_files/origin-3p-ppo.zip"


def load(paths: list[str], z: float | None = None) -> dict[str, np.ndarray]:
    """The labels of ``paths``; with ``z``, relabelled: the best candidate where its mean
    paired gain over the apprentice's move is above ``z`` standard errors, else that move."""
    parts = [np.load(p, allow_pickle=False) for p in paths]
    keys = ("observations", "masks", "candidates", "gains", "errors", "actions", "games")
    data = {key: np.concatenate([part[key] for part in parts]) for key in keys}
    if z is not None:
        gains, errors = data["gains"], data["errors"]
        # as the search chooses: the best other candidate, if above z errors (and rounding)
        best = 1 + np.argmax(np.where(data["candidates"][:, 1:] >= 0, gains[:, 1:], -np.inf),
                             axis=1)
        rows = np.arange(len(best))
        sure = gains[rows, best] > z * errors[rows, best] + 1e-9
        data["actions"] = np.where(sure, data["candidates"][rows, best],
                                   data["candidates"][:, 0])
    return data


def scores(policy, data: dict[str, np.ndarray], rows: np.ndarray) -> dict[str, float]:
    """Held-out loss and agreement with the search on ``rows``."""
    with th.no_grad():
        obs = th.as_tensor(data["observations"][rows])
        dist = policy.get_distribution(obs, action_masks=data["masks"][rows])
        actions = th.as_tensor(data["actions"][rows])
        loss = float(-dist.log_prob(actions).mean())
        best = dist.get_actions(deterministic=True).numpy()
    labels = data["actions"][rows]
    switched = labels != data["candidates"][rows, 0]
    hit = best == labels
    return {"loss": loss, "agree": float(hit.mean()),
            "kept": float(hit[~switched].mean()) if (~switched).any() else float("nan"),
            "switched": float(hit[switched].mean()) if switched.any() else float("nan"),
            "rows": int(len(rows)), "switched_rows": int(switched.sum())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("labels", nargs="+")
    parser.add_argument("--net", default=ZIP)
    parser.add_argument("--out", required=True)
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--lr", type=float, default=3e-5)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--z", type=float, default=None,
                        help="relabel: switch only where the gain is above z standard errors")
    parser.add_argument("--json")
    args = parser.parse_args()
    th.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    data = load(args.labels, args.z)
    held = data["games"] % 10 == 0
    train, valid = np.flatnonzero(~held), np.flatnonzero(held)
    if not len(train) or not len(valid):
        raise SystemExit("finetune.py needs games to learn from and games whose seed ends in 0 "
                         f"to hold out; the labels hold {len(set(data['games']))} games")
    model = load_model(args.net)
    policy = model.policy
    policy.set_training_mode(False)
    curve = [{"epoch": 0, **scores(policy, data, valid), "train": scores(policy, data, train)}]
    print(json.dumps(curve[-1]), flush=True)
    best_loss, best_state = curve[0]["loss"], copy.deepcopy(policy.state_dict())
    optimizer = th.optim.Adam(policy.parameters(), lr=args.lr)
    obs_all = th.as_tensor(data["observations"])
    masks_all = th.as_tensor(data["masks"])
    actions_all = th.as_tensor(data["actions"])
    for epoch in range(1, args.epochs + 1):
        policy.set_training_mode(True)
        order = rng.permutation(train)
        for start in range(0, len(order), args.batch):
            idx = th.as_tensor(order[start:start + args.batch])
            _values, log_prob, _entropy = policy.evaluate_actions(
                obs_all[idx], actions_all[idx], action_masks=masks_all[idx])
            loss = -log_prob.mean()
            optimizer.zero_grad()
            loss.backward()
            th.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
        policy.set_training_mode(False)
        curve.append({"epoch": epoch, **scores(policy, data, valid),
                      "train": scores(policy, data, train)})
        print(json.dumps(curve[-1]), flush=True)
        if curve[-1]["loss"] < best_loss:
            best_loss, best_state = curve[-1]["loss"], copy.deepcopy(policy.state_dict())
    policy.load_state_dict(best_state)
    save_model(model, args.out, spec=read_env_spec(args.net))
    chosen = min(curve, key=lambda row: row["loss"])["epoch"]
    print(f"saved epoch {chosen} to {args.out}")
    if args.json:
        write_json(args.json, {"labels": args.labels, "net": args.net, "z": args.z,
                               "epochs": args.epochs, "lr": args.lr, "batch": args.batch,
                               "seed": args.seed, "chosen_epoch": chosen, "curve": curve})


if __name__ == "__main__":
    main()
