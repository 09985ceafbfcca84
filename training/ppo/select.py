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

``python -m primeval.training.ppo.select RUN`` does the same for a finished run (one trained
before ``select`` existed, or to try another ``--set select.snapshots=K``): the final policy
is ``checkpoints/latest.zip``; ``model.zip`` becomes the chosen file and ``selection.json``
says which and why; with ``--evaluate`` the final evaluation's tables are played again with
the chosen policy and ``eval.json``/``summary.md`` rewritten, so the folder is the one a run
trained with ``select`` writes. The checkpoint is not touched, so ``--resume`` goes on from
the end.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
from pathlib import Path
from typing import Any

from primeval.training.seeding import RunSeeds

__all__ = ["candidates", "select_policy", "main"]

_SNAPSHOT = re.compile(r"step_(\d+)\.zip")


def candidates(config: Any, run_dir: str | Path, final_step: int) -> list[tuple[int, Path]]:
    """The snapshots to compare with the final policy: the ``select.snapshots`` newest of
    ``run_dir/snapshots/step_N.zip`` with ``0 < N <= final_step - one rollout``, oldest
    first."""
    from primeval.training.ppo.train import rollout_steps

    found = []
    for path in (Path(run_dir) / "snapshots").glob("step_*.zip"):
        match = _SNAPSHOT.fullmatch(path.name)
        if match and 0 < int(match[1]) <= final_step - rollout_steps(config):
            found.append((int(match[1]), path))
    found.sort()
    return found[len(found) - config.select.snapshots:] if config.select.snapshots else []


def select_policy(config: Any, run_dir: str | Path, final: Any, final_step: int,
                  progress: bool | str = False, trust_checkpoint: bool = False
                  ) -> dict[str, Any]:
    """Play the final policy (``final``: a model in memory, or a checkpoint path) and each
    candidate snapshot against the heuristic bots at the run's selection seeds; the result
    (every candidate's win rate and interval, and the ``chosen`` step and ``file``,
    ``None`` for the final policy). Writes nothing."""
    from primeval.training.agents import make_heuristic
    from primeval.training.agents.policy import PolicyAgent
    from primeval.training.evaluate import play_tournament

    seeds = RunSeeds(config.seed).child("selection")
    n = config.players
    rows: list[dict[str, Any]] = []
    for step, path in [*candidates(config, run_dir, final_step), (final_step, None)]:
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
    rates = ", ".join(f"{r['step']:,}: {r['win_rate']:.3f}" for r in selection["candidates"])
    which = ("the final policy" if selection["file"] is None
             else f"the snapshot at step {selection['chosen']:,}")
    return (f"model.zip is {which}, the best against the heuristic bots in "
            f"{selection['games']} selection games each ({rates})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m primeval.training.ppo.select",
        description="Choose a finished run's model.zip among its final policy "
                    "(checkpoints/latest.zip) and its newest snapshots, by games against "
                    "the heuristic bots at the run's selection seeds (config: select).")
    parser.add_argument("run", help="the run folder (config.yaml, checkpoints/, snapshots/)")
    parser.add_argument("--set", dest="sets", action="append", default=[],
                        metavar="KEY=VALUE", help="override the run's config (select.snapshots=2)")
    parser.add_argument("--evaluate", action="store_true",
                        help="then play the final evaluation's tables again with the chosen "
                             "policy (the games training's end plays) and rewrite eval.json "
                             "and summary.md, as a run trained with select writes them")
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument("--trust-checkpoint", action="store_true",
                        help="load snapshots that need unpickling (only runs you made)")
    args = parser.parse_args(argv)
    from primeval.training.agents.checkpoint import CheckpointError
    from primeval.training.config import ConfigError, parse_sets
    from primeval.training.ppo.torch_runtime import torch_threads
    from primeval.training.ppo.train import resume_config

    run = Path(args.run)
    try:
        config = resume_config(run, **parse_sets(args.sets))
        progress_file = run / "checkpoints" / "progress.json"
        final = run / "checkpoints" / "latest.zip"
        if not final.is_file() or not progress_file.is_file():
            raise CheckpointError(f"{run}: no checkpoints/latest.zip and progress.json (not "
                                  "a finished primeval train run)")
        if config.select.snapshots < 1:
            raise ConfigError("select.snapshots is 0: nothing to choose from (give "
                              "--set select.snapshots=K)")
        step = json.loads(progress_file.read_text(encoding="utf-8"))["num_timesteps"]
        if not isinstance(step, int) or isinstance(step, bool) or step < 0:
            raise CheckpointError(f"{progress_file}: num_timesteps must be a whole number")
        with torch_threads(1):
            selection = select_policy(config, run, final, step, progress=not args.quiet,
                                      trust_checkpoint=args.trust_checkpoint)
    except (CheckpointError, ConfigError, ValueError, KeyError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    chosen = final if selection["file"] is None else run / selection["file"]
    tmp = run / "model.zip.tmp"
    shutil.copyfile(chosen, tmp)
    os.replace(tmp, run / "model.zip")
    (run / "selection.json").write_text(json.dumps(selection, indent=2) + "\n",
                                        encoding="utf-8")
    print(summary_line(selection))
    if args.evaluate:
        with torch_threads(1):
            final = evaluate_chosen(config, run, run / "model.zip", selection,
                                    progress=not args.quiet)
        print(f"eval.json and summary.md rewritten: vs {config.players - 1} heuristic "
              f"{final['win_rate_vs_heuristic']:.3f}")
    return 0


def evaluate_chosen(config: Any, run_dir: Path, model_path: Path, selection: dict[str, Any],
                    progress: bool = False) -> dict[str, Any]:
    """The final evaluation's tables for ``model_path`` (the run's ``final_evaluation``
    seeds, as :func:`~primeval.training.ppo.train.train` plays them after ``select``),
    merged into the run's ``eval.json`` (its training figures and ratings kept); writes
    ``eval.json`` and ``summary.md``."""
    from primeval.training.agents.checkpoint import load_model
    from primeval.training.ppo.train import evaluate_heuristic, evaluate_model, summary_table

    path = run_dir / "eval.json"
    final = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    seeds = RunSeeds(config.seed).child("final_evaluation")
    label = progress and "final"
    model = load_model(model_path)
    final.update(evaluate_model(model, config, config.eval.final_games, seeds, progress=label))
    final.update(evaluate_heuristic(config, config.eval.final_games, seeds, progress=label))
    final["selection"] = selection
    path.write_text(json.dumps(final, indent=2), encoding="utf-8")
    if {"game", "players", "seed", "total_steps", "train_seconds"} <= set(final):
        (run_dir / "summary.md").write_text(summary_table(final) + "\n", encoding="utf-8")
    return final


if __name__ == "__main__":
    sys.exit(main())
