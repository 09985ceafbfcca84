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
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from primeval.training.seeding import RunSeeds

__all__ = ["candidates", "select_policy", "summary_line"]

_SNAPSHOT = re.compile(r"step_(\d+)\.zip")


def candidates(config: Any, run_dir: str | Path, final_step: int) -> list[tuple[int, Path]]:
    """The snapshots to compare with the final policy: the ``select.snapshots`` newest of
    ``run_dir/snapshots/step_N.zip`` with ``0 < N <= final_step - one rollout``, oldest
    first."""
    rollout = config.ppo.n_steps * config.n_envs  # PPO's rollout (train.rollout_steps)
    found = []
    for path in (Path(run_dir) / "snapshots").glob("step_*.zip"):
        match = _SNAPSHOT.fullmatch(path.name)
        if match and 0 < int(match[1]) <= final_step - rollout:
            found.append((int(match[1]), path))
    found.sort()
    return found[len(found) - config.select.snapshots:] if config.select.snapshots else []


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
    if not snapshots:  # nothing to choose between: 400 games would only measure the final
        return {"games": 0, "opponents": "heuristic", "seeds": "selection",
                "candidates": [], "chosen": final_step, "file": None}
    seeds = RunSeeds(config.seed).child("selection")
    n = config.players
    rows: list[dict[str, Any]] = []
    for step, path in [*snapshots, (final_step, None)]:
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
        rows.append({"step": step, "file": None if path is None else f"snapshots/{path.name}",
                     "win_rate": results[0].win_rate, "win_rate_ci95": [lo, hi]})
    best = max(rows, key=lambda r: (r["win_rate"], r["step"]))
    return {"games": config.select.games, "opponents": "heuristic", "seeds": "selection",
            "candidates": rows, "chosen": best["step"], "file": best["file"]}


def summary_line(selection: dict[str, Any]) -> str:
    """One line for the run's summary: which policy is ``model.zip`` and the rates."""
    if not selection["candidates"]:
        return "model.zip is the final policy: no snapshot before it to compare it with"
    rates = ", ".join(f"{r['step']:,}: {r['win_rate']:.3f}" for r in selection["candidates"])
    which = ("the final policy" if selection["file"] is None
             else f"the snapshot at step {selection['chosen']:,}")
    return (f"model.zip is {which}, the best against the heuristic bots in "
            f"{selection['games']} selection games each ({rates})")
