"""Which of a run's policies becomes its ``model.zip`` (the config's ``select``).

PPO's last update is not always its best: two seeds of Primordial Soup's default ended 0.13
apart against the heuristic bots, and the weaker run's policy a quarter of the way from the
end was better than its last (docs/learning.md, "Choosing the policy a run ships"). With
``select.snapshots: K`` the end of a run compares its final policy with the K newest
snapshots taken before it (at the evaluations; a snapshot less than one rollout older than
the end is the final policy in all but one update, and is skipped) in ``select.games``
seat-rotated games each against the heuristic bots. The games are the run's own *selection*
seeds (the stream ``selection`` of its seed tree): the same games for every candidate, and
other games than the final evaluation's, which then measures the chosen policy on games it
was not chosen on. The best win rate is shipped (a tie: the later policy).

``primeval select RUN`` does the same for a finished run (one trained before ``select``
existed, or to try another ``--set select.snapshots=K``; :func:`~primeval.training.ppo.train.
select_finished_run`): the final policy is ``checkpoints/latest.zip``; ``model.zip`` becomes
the chosen file and ``selection.json`` says which and why; with ``--evaluate`` the final
evaluation's tables are played again with the chosen policy and ``eval.json``/``summary.md``
rewritten, so the folder is the one a run trained with ``select`` writes. The checkpoint is
not touched, so ``--resume`` goes on from the end.

With ``select.average: K`` one more candidate is offered: the mean of the weights of the last
K policies (the final one and the K - 1 newest snapshots before it), written to the run's
``average.zip`` (:func:`mean_policy`). Snapshots of one run wander about its trend by more
than their games' intervals explain; the mean of their weights (stochastic weight averaging,
Izmailov et al. 2018, here over PPO snapshots) sits in the middle of that band. On Origin
learned alone, on its plateau, it won 0.380 where the last policy won 0.277 on the same 1,600
held-out games; on Primordial Soup's default, a curve still climbing, it lost, 0.647 against
0.846 (docs/learning.md, "Choosing the policy a run ships"). It competes on the same
selection games as the others, so it ships only when it wins them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from primeval.training.files import write_atomically
from primeval.training.seeding import RunSeeds

__all__ = ["candidates", "mean_policy", "mean_weights", "select_policy", "summary_line"]

_SNAPSHOT = re.compile(r"step_(\d+)\.zip")


def candidates(config: Any, run_dir: str | Path, final_step: int) -> list[tuple[int, Path]]:
    """The snapshots to compare with the final policy: the ``select.snapshots`` newest of
    ``run_dir/snapshots/step_N.zip`` with ``0 < N <= final_step - one rollout``, oldest
    first."""
    found = _snapshots_before(config, run_dir, final_step)
    return found[len(found) - config.select.snapshots:] if config.select.snapshots else []


def _snapshots_before(config: Any, run_dir: str | Path, final_step: int
                      ) -> list[tuple[int, Path]]:
    """Every ``snapshots/step_N.zip`` with ``0 < N <= final_step - one rollout``, oldest
    first."""
    rollout = config.ppo.n_steps * config.n_envs  # PPO's rollout (train.rollout_steps)
    found = []
    for path in (Path(run_dir) / "snapshots").glob("step_*.zip"):
        match = _SNAPSHOT.fullmatch(path.name)
        if match and 0 < int(match[1]) <= final_step - rollout:
            found.append((int(match[1]), path))
    found.sort()
    return found


def mean_weights(weights: list[dict[str, Any]]) -> dict[str, Any]:
    """The element-wise mean of several state dicts of one network: floating tensors are
    averaged in float32 and cast back to the first's dtype; any other tensor must be equal
    in all of them.

    Raises:
        ValueError: fewer than two, or not the same network (names, shapes), or a
            non-floating tensor that differs.
    """
    import torch

    if len(weights) < 2:
        raise ValueError("mean_weights: give at least two state dicts")
    first = weights[0]
    for i, w in enumerate(weights[1:], 1):
        if w.keys() != first.keys() or any(w[k].shape != first[k].shape for k in first):
            raise ValueError(f"mean_weights: state dict {i} is not the same network as the "
                             "first (its names or shapes differ)")
    mean = {}
    for k, tensor in first.items():
        if tensor.is_floating_point():
            stacked = torch.stack([w[k].float() for w in weights])
            mean[k] = stacked.mean(dim=0).to(tensor.dtype)
        elif all(torch.equal(w[k], tensor) for w in weights):
            mean[k] = tensor.clone()
        else:
            raise ValueError(f"mean_weights: {k} is not a float tensor and differs between "
                             "the state dicts")
    return mean


def mean_policy(config: Any, run_dir: str | Path, final: Any, final_step: int,
                trust_checkpoint: bool = False) -> tuple[list[int], Path] | None:
    """``select.average``: write ``run_dir/average.zip``, the newest snapshot's file with
    its policy's weights replaced by the mean of the final policy's (``final``: a model in
    memory or a checkpoint path) and the ``select.average - 1`` newest snapshots' (fewer if
    the run has fewer), its step count the final one's. Returns the steps averaged (oldest
    first) and the file, or ``None`` when there is no snapshot to average with or
    ``select.average`` is 0. Every file is read by the package's loader
    (:func:`~primeval.training.agents.checkpoint.load_model`: nothing unpickled unless
    ``trust_checkpoint``)."""
    from primeval.training.agents.checkpoint import load_model, read_env_spec, save_model

    if config.select.average < 2:
        return None
    found = _snapshots_before(config, run_dir, final_step)[-(config.select.average - 1):]
    if not found:
        return None
    final_model = (load_model(final, trust_checkpoint=trust_checkpoint)
                   if isinstance(final, str | Path) else final)
    base = None
    weights = []
    for _step, path in found:
        base = load_model(path, trust_checkpoint=trust_checkpoint)
        weights.append(base.policy.state_dict())
    weights.append(final_model.policy.state_dict())
    try:
        mean = mean_weights(weights)
    except ValueError as exc:
        raise ValueError(f"select.average: {run_dir}: {exc}") from None
    base.policy.load_state_dict(mean)
    base.num_timesteps = final_step
    out = Path(run_dir) / "average.zip"
    write_atomically(out, lambda tmp: save_model(base, tmp, read_env_spec(found[-1][1])))
    return [step for step, _path in found] + [final_step], out


def select_policy(config: Any, run_dir: str | Path, final: Any, final_step: int,
                  progress: bool | str = False, trust_checkpoint: bool = False
                  ) -> dict[str, Any]:
    """Play the final policy (``final``: a model in memory, or a checkpoint path) and each
    candidate snapshot against the heuristic bots at the run's selection seeds; the result
    (every candidate's win rate and interval, and the ``chosen`` step and ``file``,
    ``None`` for the final policy). With no snapshot to compare (a run shorter than its
    first evaluation), no game is played: the final policy is chosen, ``games`` is 0 and
    ``candidates`` is empty. Writes nothing."""
    from primeval.training.agents import make_heuristic
    from primeval.training.agents.policy import PolicyAgent
    from primeval.training.evaluate import play_tournament

    snapshots = candidates(config, run_dir, final_step)
    averaged = mean_policy(config, run_dir, final, final_step, trust_checkpoint)
    if not snapshots and averaged is None:  # 400 games would only measure the final policy
        return {"games": 0, "opponents": "heuristic", "seeds": "selection",
                "candidates": [], "chosen": final_step, "file": None}
    seeds = RunSeeds(config.seed).child("selection")
    n = config.players
    rows: list[dict[str, Any]] = []
    offered = [*snapshots, (final_step, None)]
    if averaged is not None:
        offered.append((final_step, averaged[1]))
    for step, path in offered:
        if path is None:
            learner = (PolicyAgent(final, trust_checkpoint=trust_checkpoint)
                       if isinstance(final, str | Path) else PolicyAgent.from_model(final))
        else:
            learner = PolicyAgent(path, trust_checkpoint=trust_checkpoint)
        agents = [learner] + [make_heuristic(config.game, seeds.spawn("heuristic", i))
                              for i in range(1, n)]
        labels = [f"step {step:,}"] + [f"heuristic#{i}" for i in range(1, n)]
        label = progress and f"{'select' if progress is True else progress}: step {step:,}"
        results = play_tournament(config.game, n, agents, labels, config.select.games,
                                  seed=seeds.spawn("games"), progress=label,
                                  obs_encoder=config.encoder, **config.env)
        lo, hi = results[0].win_interval()
        row = {"step": step, "file": None if path is None else f"snapshots/{path.name}",
               "win_rate": results[0].win_rate, "win_rate_ci95": [lo, hi]}
        if averaged is not None and path == averaged[1]:
            row.update(file=path.name, mean_of=averaged[0])
        rows.append(row)
    # the best win rate; a tie: the later policy, and the final one before the mean
    best = max(rows, key=lambda r: (r["win_rate"], r["step"], "mean_of" not in r))
    return {"games": config.select.games, "opponents": "heuristic", "seeds": "selection",
            "candidates": rows, "chosen": best["step"], "file": best["file"]}


def summary_line(selection: dict[str, Any]) -> str:
    """One line for the run's summary: which policy is ``model.zip`` and the rates."""
    if not selection["candidates"]:
        return "model.zip is the final policy: no snapshot before it to compare it with"
    rates = ", ".join(f"{_name(r)}: {r['win_rate']:.3f}" for r in selection["candidates"])
    mean = [r for r in selection["candidates"] if "mean_of" in r]
    if selection["file"] is None:
        which = "the final policy"
    elif mean and selection["file"] == mean[0]["file"]:
        which = f"the {_name(mean[0])}"
    else:
        which = f"the snapshot at step {selection['chosen']:,}"
    return (f"model.zip is {which}, the best against the heuristic bots in "
            f"{selection['games']} selection games each ({rates})")


def _name(row: dict[str, Any]) -> str:
    """A candidate as the summary names it: its step, or the policies it is the mean of."""
    if "mean_of" not in row:
        return f"{row['step']:,}"
    return f"mean of the last {len(row['mean_of'])} policies ({row['mean_of'][0]:,} to {row['step']:,})"
