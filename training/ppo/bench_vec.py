"""Training throughput of the default configs by vector env and workers, or old against new:
``python -m primeval.training.ppo.bench_vec``.

Every run is a short ``primeval train --config GAME/default`` in a fresh process, with the
opponents of the config's last schedule phase from the first step (the bulk of a real run:
Primordial Soup's 90% heuristic opponents, not the random ones of its first 30,000 steps)
and no evaluation, rating games, checkpoints or snapshots beyond the minimum (one game of
each evaluation); the figures are env steps (learner decisions) per second of
``model.learn``, less the one-game evaluation at its start, and beside them the CPU time of
the main process in it per env step (worker processes' not included), which a loaded machine
moves far less than the wall time.

- ``--vec batched vector vector:2 vector+torch_threads=2``: this tree's default config with
  ``vec_env`` (and ``workers`` after a colon, any other ``KEY=VALUE`` after a ``+``) set so;
  ``+env:NAME=VALUE`` sets an environment variable of the run's process instead (e.g.
  ``vector+torch_threads=2+env:OMP_WAIT_POLICY=PASSIVE``, read by OpenMP when torch loads);
- ``--baseline DIR``: the default config of another checkout (DIR, e.g. a ``git worktree``
  of an older commit, run from a package shim on ``PYTHONPATH`` as ``bench_rules
  --baseline`` does) against this tree's, each as its own config says.

Settings take turns (``--rounds`` rounds of every setting: old, new, old, new ...); the table
gives each setting's median and its ratio to the first setting, measured in the same rounds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from importlib import resources
from pathlib import Path
from typing import Any

from primeval.envs.games import GAMES

# The run, with the wall and CPU time (of this, the main process) in MaskablePPO.learn less
# the evaluation at its start, on stderr. The CPU time moves far less with the machine's load.
_RUN = """
import sys, time
import primeval
import primeval.training.ppo.train as train
from sb3_contrib import MaskablePPO
from primeval.training.cli import main
print(primeval.__file__, file=sys.stderr)
spent = [0.0, 0.0]
def timed(fn):
    def run(*args, **kwargs):
        t0, c0 = time.perf_counter(), time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - t0
            spent[1] += time.process_time() - c0
    return run
train.evaluate_model = timed(train.evaluate_model)
learn = MaskablePPO.learn
def timed_learn(self, *args, **kwargs):
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        return learn(self, *args, **kwargs)
    finally:
        print("learn_seconds", time.perf_counter() - t0 - spent[0],
              time.process_time() - c0 - spent[1], file=sys.stderr)
MaskablePPO.learn = timed_learn
sys.exit(main(sys.argv[1:]))
"""


def steady_overrides(game: str, steps: int) -> list[str]:
    """``--set`` items for a measuring run of ``game``'s default config: ``steps`` learner
    steps, the last schedule phase's opponents from the start, evaluations at their minimum."""
    from primeval.training.ppo.config import load_config

    config = load_config(resources.files("primeval.configs").joinpath(game, "default.yaml"))
    sets = [
        f"total_steps={steps}",
        "eval.every=1000000000",
        "eval.games=1",
        "eval.final_games=1",
        "league.rating_games=0",
        "checkpoint_every=1000000000",
        "self_play.snapshot_every=1000000000",
    ]
    if config.league.schedule:
        last = config.league.schedule[-1]
        sets += [
            "league.schedule=[]",
            f"opponents.random={last.random}",
            f"opponents.heuristic={last.heuristic}",
            f"opponents.self_play={last.self_play}",
        ]
    return sets


def default_config(game: str, pythonpath: str | None) -> str:
    """The text of ``game``'s default config in the tree ``pythonpath`` points at (a
    ``package_shim``), or in this one."""
    if pythonpath is None:
        return resources.files("primeval.configs").joinpath(game, "default.yaml").read_text(
            encoding="utf-8")
    return (Path(pythonpath) / "primeval" / "configs" / game / "default.yaml").read_text(
        encoding="utf-8")


def config_with(text: str, sets: list[str]) -> str:
    """The YAML config ``text`` with the ``KEY=VALUE`` items set (read by the config spine's
    :func:`~primeval.training.config.parse_sets`, as ``primeval train --set`` reads them):
    written into a file, so that a tree whose ``train`` has no ``--set`` (as on 2026-12-02)
    runs the same settings.

    Raises:
        ConfigError: An item is not ``KEY=VALUE`` (from ``parse_sets``).
    """
    import yaml

    from primeval.training.config import parse_sets

    data = yaml.safe_load(text) or {}
    for key, value in parse_sets(sets).items():
        *parents, last = key.split(".")
        node = data
        for part in parents:
            node = node.setdefault(part, {})
        node[last] = value
    return yaml.safe_dump(data, sort_keys=False)


# A setting's item naming an environment variable of its run's process, not a config key.
_ENV = "env:"


def process_env(sets: list[str], pythonpath: str | None) -> tuple[dict[str, str], list[str]]:
    """The environment of a run's process (this one's, its ``env:NAME=VALUE`` items set, its
    ``PYTHONPATH`` the baseline's shim or none) and the config overrides left."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    env.update(item[len(_ENV):].split("=", 1) for item in sets if item.startswith(_ENV))
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    return env, [item for item in sets if not item.startswith(_ENV)]


def run_once(game: str, sets: list[str], pythonpath: str | None) -> tuple[float, float, str]:
    """One run in a fresh process: its env steps per second, the main process's CPU µs per
    env step in ``learn`` and the package it ran."""
    env, sets = process_env(sets, pythonpath)
    with tempfile.TemporaryDirectory(prefix="bench_vec_") as tmp:
        out = os.path.join(tmp, "run")
        config = os.path.join(tmp, "config.yaml")
        Path(config).write_text(config_with(default_config(game, pythonpath), sets),
                                encoding="utf-8")
        args = ["train", "--config", config, "--out", out, "--quiet"]
        proc = subprocess.run(
            [sys.executable, "-c", _RUN, *args],
            env=env,
            capture_output=True,
            text=True,
            check=False,
            cwd=tempfile.gettempdir(),
        )
        if proc.returncode:
            raise SystemExit(f"bench run failed ({' '.join(args)}):\n{proc.stderr[-3000:]}")
        final = json.loads((Path(out) / "eval.json").read_text(encoding="utf-8"))
    lines = proc.stderr.splitlines()
    wall, cpu = map(float, next(x for x in lines if x.startswith("learn_seconds")).split()[1:])
    steps = final["total_steps"]
    return steps / wall, 1e6 * cpu / steps, lines[0]


def settings_of(vec: list[str]) -> list[tuple[str, list[str]]]:
    """``vec_env[:workers][+KEY=VALUE...]`` items as ``(label, --set items)``: e.g.
    ``vector+torch_threads=2`` is the vector env with two torch threads for the update;
    ``+env:NAME=VALUE`` items stay as they are, for :func:`run_once` to set in the run's
    process environment."""
    out = []
    for item in vec:
        head, *extra = item.split("+")
        name, _, workers = head.partition(":")
        sets = [f"vec_env={name}"] + ([f"workers={int(workers)}"] if workers else [])
        for override in extra:
            key = override.removeprefix(_ENV).partition("=")[0]
            if "=" not in override or not key:
                raise SystemExit(f"--vec {item}: {override!r} is not KEY=VALUE")
            sets.append(override)
        out.append((item, sets))
    return out


def measure(
    game: str, steps: int, rounds: int, settings: list[tuple[str, list[str], str | None]]
) -> list[dict[str, Any]]:
    """Every ``(label, --set items, PYTHONPATH)`` setting ``rounds`` times, in turns."""
    base = steady_overrides(game, steps)
    runs: dict[str, list[float]] = {label: [] for label, _s, _p in settings}
    cpu: dict[str, list[float]] = {label: [] for label, _s, _p in settings}
    trees: dict[str, str] = {}
    loads = []
    for _ in range(rounds):
        for label, sets, path in settings:
            loads.append(os.getloadavg()[0])
            rate, cpu_us, trees[label] = run_once(game, base + sets, path)
            runs[label].append(rate)
            cpu[label].append(cpu_us)
    if len(
        {trees[label] for label, _s, path in settings if path is not None}
        & {trees[label] for label, _s, path in settings if path is None}
    ):
        raise SystemExit("the baseline ran this tree's package: is DIR another checkout?")
    first = statistics.median(runs[settings[0][0]])
    first_cpu = statistics.median(cpu[settings[0][0]])
    return [
        {
            "game": game,
            "setting": label,
            # which tree ran it, not its path on this machine (the output gets committed)
            "tree": "this tree" if path is None else "baseline",
            "runs": runs[label],
            "env_steps_per_second": statistics.median(runs[label]),
            "ratio": statistics.median(runs[label]) / first,
            "cpu_us_per_step_runs": cpu[label],
            "cpu_us_per_step": statistics.median(cpu[label]),
            "cpu_ratio": first_cpu / statistics.median(cpu[label]),
            "load_min": min(loads),
            "load_max": max(loads),
        }
        for label, _s, path in settings
    ]


def table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| game | setting | env steps/s (median) | runs | over the first "
        "| main-process CPU µs/step (median) | runs | the first's over this |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        runs = ", ".join(f"{x:,.0f}" for x in r["runs"])
        cpu = ", ".join(f"{x:,.0f}" for x in r["cpu_us_per_step_runs"])
        lines.append(
            f"| {r['game']} | {r['setting']} | {r['env_steps_per_second']:,.0f} | "
            f"{runs} | {r['ratio']:.2f}x | {r['cpu_us_per_step']:,.0f} | {cpu} | "
            f"{r['cpu_ratio']:.2f}x |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m primeval.training.ppo.bench_vec", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--game", choices=sorted(GAMES), nargs="+", default=sorted(GAMES))
    parser.add_argument("--steps", type=int, default=8192, help="learner steps per run")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--vec",
        nargs="+",
        default=["batched", "vector"],
        help="vec_env[:workers][+KEY=VALUE...] settings of this tree's config "
        "(+env:NAME=VALUE: an environment variable of the run's process)",
    )
    parser.add_argument(
        "--baseline",
        help="another checkout: its default config against this tree's (instead of --vec)",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a further config override for every run (repeatable)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    if args.steps <= 0 or args.rounds <= 0:
        parser.error("--steps and --rounds must be positive")
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench_vec_shim_") as tmp:
        if args.baseline:
            from primeval.envs.testing.bench_rules import package_shim

            shim = package_shim(args.baseline, tmp)
            settings = [("old", args.set, shim), ("new", args.set, None)]
        else:
            settings = [(label, sets + args.set, None) for label, sets in settings_of(args.vec)]
        for game in args.game:
            rows += measure(game, args.steps, args.rounds, settings)
    if args.json:
        print(json.dumps({"started": started, "cores": os.cpu_count(), "rows": rows}, indent=2))
    else:
        print(
            f"{started}, {os.cpu_count()} cores, load {rows[0]['load_min']:.1f}-"
            f"{max(r['load_max'] for r in rows):.1f} (1-minute average at each run's start)"
        )
        print(table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
