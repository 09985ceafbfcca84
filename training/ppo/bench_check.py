"""``make bench-check``: the speed ratios of issue 23, item 7, against committed figures.

Usage::

    python -m primeval.training.ppo.bench_check [--rounds 7] [--seconds 1.5]
        [--tolerance 0.25] [--figures docs/benchmarks/bench-check.json] [--update] [--json]

measures, in one process and interleaved (every figure once per round, then the next round):

* ``GAME / chess_v6`` and ``GAME / go_v5``: each game's random-play agent steps per second
  through ``env()`` (:func:`primeval.envs.testing.bench.bench_game`, the flat encoder, the
  default player count) over PettingZoo's ``chess_v6`` and ``go_v5`` with the same loop
  (:func:`~primeval.envs.testing.bench.play_random`), ``--seconds`` each;
* ``GAME / training over SB3 alone``: env steps per second of one rollout and PPO update of
  the default config (``configs/GAME/default.yaml``, built as ``primeval train`` builds it:
  :func:`primeval.training.ppo.profile.build_run`, with its opponents, prior and vector env,
  its games in this one process: the record compares the code, not the worker count)
  over MaskablePPO's own on an env of the same observation and action sizes that does no
  work (:class:`primeval.training.ppo.bench.IdleEnv`, the same number of envs, network and
  PPO settings, ``primeval train``'s policy without the prior).

Each figure is the median of its per-round ratios (the two sides of a ratio are measured
next to each other, so a machine whose speed drifts moves both). Only ratios are compared:
machines differ in absolute speed by more than twice. A figure that fell by more than
``--tolerance`` (a fraction: 0.25 fails on a slowdown above 25%) below its committed value
fails the check, named, with exit code 1; a figure with no committed value (or a committed
one that was not measured) is an error, exit code 2, that names it.

The ratios themselves depend on the CPU (the peers' C and Python code and ours do not gain
alike from a newer core: on 2 cores of an Intel Xeon both games' ratios to ``chess_v6`` are
about a quarter lower than on the AMD EPYC the first figures came from, for the same code).
So the file keeps one record per machine (``{"machines": [run, ...]}``, each with its
``machine``), and a run is compared with the record of its CPU (its model name starts with
the record's); on a CPU with no record, with each figure's lowest over the records (the most
lenient machine known), saying so. ``--update`` records this run as its machine's record
(replacing that machine's, keeping the others'), with the date, the load and the command.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

GAMES = ("primordial_soup", "origin")
PEERS = ("chess_v6", "go_v5")
TRAINING = "training over SB3 alone"
DEFAULT_TOLERANCE = 0.25
#: The committed figures: docs/benchmarks/bench-check.json of the clone.
DEFAULT_FIGURES = Path(__file__).resolve().parents[2] / "docs" / "benchmarks" / "bench-check.json"
COMMAND = "python -m primeval.training.ppo.bench_check"


class FiguresError(ValueError):
    """The committed figures and the measured ones do not name the same figures, or the
    committed file cannot be read."""


def figure_names(games: tuple[str, ...] = GAMES) -> list[str]:
    """Every figure the check measures, in its order."""
    return [f"{g} / {p}" for g in games for p in PEERS] + [f"{g} / {TRAINING}" for g in games]


# Comparison -------------------------------------------------------------------------------------


def compare(
    measured: dict[str, float], committed: dict[str, float], tolerance: float = DEFAULT_TOLERANCE
) -> list[dict[str, Any]]:
    """Each measured ratio against its committed value: a row per figure with ``name``,
    ``measured``, ``committed``, ``change`` (measured / committed - 1) and ``ok`` (False when
    the ratio fell by more than ``tolerance``, a fraction of the committed value). A figure
    measured but not committed, or committed but not measured, raises :class:`FiguresError`
    naming it; so does a tolerance outside [0, 1) or a ratio that is not a positive number."""
    if not 0 <= tolerance < 1:
        raise FiguresError(f"tolerance must be in [0, 1) (0.25 is 25%), got {tolerance!r}")
    missing = [name for name in measured if name not in committed]
    if missing:
        raise FiguresError(
            f"no committed figure for {', '.join(repr(n) for n in missing)}; "
            f"record one with: {COMMAND} --update"
        )
    unmeasured = [name for name in committed if name not in measured]
    if unmeasured:
        raise FiguresError(
            f"committed figure(s) {', '.join(repr(n) for n in unmeasured)} were not measured"
        )
    rows = []
    for name, value in measured.items():
        base = committed[name]
        for what, v in (("measured", value), ("committed", base)):
            if isinstance(v, bool) or not isinstance(v, int | float) or not v > 0:
                raise FiguresError(f"{what} figure {name!r} must be a positive number, got {v!r}")
        rows.append(
            {
                "name": name,
                "measured": float(value),
                "committed": float(base),
                "change": value / base - 1,
                "ok": value >= (1 - tolerance) * base,
            }
        )
    return rows


def failures(rows: list[dict[str, Any]]) -> list[str]:
    """The names of the figures that fell by more than the tolerance."""
    return [row["name"] for row in rows if not row["ok"]]


def load_figures(path: Path) -> dict[str, Any]:
    """The committed file: ``{"machines": [{"figures": {name: ratio}, "machine": {...},
    ...}, ...]}`` (a file of one run, ``{"figures": ..., ...}``, is read as one record)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FiguresError(
            f"no committed figures at {path}; record them with: {COMMAND} --update"
        ) from None
    except json.JSONDecodeError as exc:
        raise FiguresError(f"{path} is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise FiguresError(f"{path} is not an object with 'machines' (or 'figures')")
    records = data.get("machines", [data])
    if not isinstance(records, list) or not records:
        raise FiguresError(f"{path}: 'machines' must be a non-empty list of runs")
    for k, record in enumerate(records):
        if not isinstance(record, dict) or not isinstance(record.get("figures"), dict):
            raise FiguresError(f"{path}: record {k} has no 'figures' object of name -> ratio")
        if not isinstance(record.get("machine", {}), dict):
            raise FiguresError(f"{path}: record {k}'s 'machine' is not an object")
    return {**data, "machines": records}


def _cpu_of(record: dict[str, Any]) -> str:
    cpu = record.get("machine", {}).get("cpu")
    return cpu if isinstance(cpu, str) else ""


def figures_for(data: dict[str, Any], cpu: str) -> tuple[dict[str, Any], str]:
    """The committed record to compare a run on ``cpu`` with, and a line saying which: the
    record whose CPU ``cpu`` starts with; on a CPU with no record, each figure's lowest over
    the records (the most lenient machine known), dated by the records'."""
    records = data["machines"]
    for record in records:
        if _cpu_of(record) and cpu.startswith(_cpu_of(record)):
            return record, f"the figures recorded on this CPU ({_cpu_of(record)})"
    names = {name for record in records for name in record["figures"]}
    lowest = {}
    for name in sorted(names):
        values = [r["figures"][name] for r in records if name in r["figures"]]
        if all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
            lowest[name] = min(values)
        else:
            lowest[name] = next(v for v in values if not isinstance(v, int | float))
    cpus = ", ".join(_cpu_of(r) or "an unnamed CPU" for r in records)
    dates = ", ".join(str(r.get("date", "undated")) for r in records)
    return ({"figures": lowest, "date": dates},
            f"no figures recorded on this CPU ({cpu}): each figure's lowest over the "
            f"records of {cpus}; record this machine's with {COMMAND} --update")


def with_record(data: dict[str, Any] | None, run: dict[str, Any]) -> dict[str, Any]:
    """The file's contents with ``run`` as its machine's record (replacing the record of the
    same CPU, keeping the others)."""
    cpu = _cpu_of(run)
    kept = [r for r in (data or {}).get("machines", [])
            if not (cpu and _cpu_of(r) and cpu.startswith(_cpu_of(r)))]
    return {"note": "one record per machine: a run is compared with its CPU's "
                    "(training/ppo/bench_check.py)",
            "machines": [*kept, run]}


def report_lines(rows: list[dict[str, Any]], tolerance: float) -> list[str]:
    lines = []
    for row in rows:
        verdict = "ok" if row["ok"] else f"SLOWER by more than {tolerance:.0%}"
        lines.append(
            f"{row['name']}: {row['measured']:.3f} (committed {row['committed']:.3f}, "
            f"{row['change']:+.1%}) {verdict}"
        )
    return lines


# Measurement ------------------------------------------------------------------------------------


class _Training:
    """One game's default config and its idle twin, built once, then timed a rollout (and its
    PPO update) at a time."""

    def __init__(self, game: str, run_dir: str) -> None:
        from stable_baselines3.common.vec_env import DummyVecEnv

        from primeval.training.ppo.bench import IdleEnv
        from primeval.training.ppo.profile import build_run
        from primeval.training.ppo.torch_runtime import phase_threads_callback

        self.config, self.vec, self.model, _ = build_run(game, run_dir)
        config = self.config
        space = (self.vec.observation_space, self.vec.action_space)
        self.idle = DummyVecEnv([lambda: IdleEnv(*space)] * config.n_envs)
        from primeval.training.ppo.model import new_model

        self.idle_model = new_model(config, self.idle, prior=False)
        self.rollout = config.n_envs * config.ppo.n_steps
        self._callback = lambda: phase_threads_callback(config.torch_threads)
        for model in (self.model, self.idle_model):  # warm-up: imports, torch's first calls
            model.learn(self.rollout, callback=self._callback())

    def _time(self, model: Any) -> float:
        start = time.perf_counter()
        model.learn(self.rollout, reset_num_timesteps=False, callback=self._callback())
        return self.rollout / (time.perf_counter() - start)

    def ratio(self) -> tuple[float, float, float]:
        """(default config env steps/s, SB3 alone's, their ratio) of one rollout each."""
        real, idle = self._time(self.model), self._time(self.idle_model)
        return real, idle, real / idle

    def close(self) -> None:
        self.vec.close()
        self.idle.close()


def measure(
    rounds: int = 7, seconds: float = 1.5, games: tuple[str, ...] = GAMES
) -> dict[str, Any]:
    """``rounds`` interleaved rounds of every figure; the medians of the per-round ratios
    (``figures``) and each round's measurements (``rounds``)."""
    if rounds < 1 or not seconds > 0:
        raise ValueError(f"rounds must be >= 1 and seconds > 0, got {rounds!r}, {seconds!r}")
    import torch

    from primeval.envs.games import GAMES as CATALOGUE
    from primeval.envs.testing import bench as env_bench
    from primeval.training.ppo.torch_runtime import distribution_checks_off

    threads = torch.get_num_threads()
    per_round: list[dict[str, Any]] = []
    with (
        tempfile.TemporaryDirectory(prefix="primeval-bench-check-") as run_dir,
        distribution_checks_off(),
    ):
        trainings = {g: _Training(g, os.path.join(run_dir, g)) for g in games}
        try:
            for r in range(rounds):
                steps: dict[str, float] = {}
                for g in games:
                    steps[g] = env_bench.bench_game(
                        g, CATALOGUE[g].default_players, "flat", seconds, seed=1000 * r
                    )["steps_per_second"]
                for p in PEERS:
                    steps[p] = env_bench.play_random(env_bench.peer_env(p), seconds, seed=1000 * r)[
                        "steps_per_second"
                    ]
                ratios = {f"{g} / {p}": steps[g] / steps[p] for g in games for p in PEERS}
                training = {}
                for g, t in trainings.items():
                    real, idle, ratio = t.ratio()
                    training[g] = {"env_steps_per_second": real, "sb3_alone": idle}
                    ratios[f"{g} / {TRAINING}"] = ratio
                per_round.append(
                    {"random_play_steps_per_second": steps, "training": training, "ratios": ratios}
                )
        finally:
            for t in trainings.values():
                t.close()
            torch.set_num_threads(threads)
    names = list(per_round[0]["ratios"])
    return {
        "figures": {n: statistics.median(r["ratios"][n] for r in per_round) for n in names},
        "rounds": per_round,
        "settings": {"rounds": rounds, "seconds": seconds, "encoder": "flat"},
    }


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds (median)")
    parser.add_argument(
        "--seconds",
        type=float,
        default=1.5,
        help="seconds of random play per game and peer per round",
    )
    parser.add_argument(
        "--tolerance",
        type=float,
        default=DEFAULT_TOLERANCE,
        help="fail when a ratio fell by more than this fraction (0.25: 25%%)",
    )
    parser.add_argument(
        "--figures",
        type=Path,
        default=DEFAULT_FIGURES,
        help="the committed figures (default: docs/benchmarks/bench-check.json)",
    )
    parser.add_argument(
        "--update", action="store_true", help="rewrite the committed figures with this run's"
    )
    parser.add_argument("--json", action="store_true", help="also print the whole run as JSON")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error(f"--rounds must be at least 1, got {args.rounds}")
    if not args.seconds > 0:
        parser.error(f"--seconds must be > 0, got {args.seconds}")
    if not 0 <= args.tolerance < 1:
        parser.error(f"--tolerance must be in [0, 1) (0.25 is 25%), got {args.tolerance}")
    from primeval.envs.testing.bench import machine

    here = machine()
    data = committed = None
    try:  # read the committed figures before spending minutes measuring
        data = load_figures(args.figures)
        committed, which = figures_for(data, here["cpu"])
    except FiguresError as exc:
        if not args.update:
            print(f"bench-check: {exc}", file=sys.stderr)
            return 2
    load_before, start = _load(), time.perf_counter()
    run = measure(args.rounds, args.seconds)
    run.update(
        date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        machine=here,
        load_average_1_5_15={"before": load_before, "after": _load()},
        seconds=round(time.perf_counter() - start, 1),
        command=" ".join([COMMAND, *(argv if argv is not None else sys.argv[1:])]),
    )
    if args.json:
        print(json.dumps(run, indent=2))
    print(
        f"bench-check: {run['date']}, load {run['load_average_1_5_15']}, "
        f"{run['seconds']:.0f} s, {args.rounds} rounds"
    )
    if args.update:
        args.figures.write_text(json.dumps(with_record(data, run), indent=2) + "\n",
                                encoding="utf-8")
        for name, value in run["figures"].items():
            print(f"{name}: {value:.3f}")
        print(f"bench-check: wrote {args.figures}")
        return 0
    try:
        rows = compare(run["figures"], committed["figures"], args.tolerance)
    except FiguresError as exc:
        print(f"bench-check: {args.figures}: {exc}", file=sys.stderr)
        return 2
    print(f"bench-check: against {which}")
    print("\n".join(report_lines(rows, args.tolerance)))
    slower = failures(rows)
    if slower:
        print(
            f"bench-check: FAILED: slower by more than {args.tolerance:.0%} than "
            f"{args.figures.name} ({committed.get('date', 'undated')}): "
            f"{', '.join(slower)}",
            file=sys.stderr,
        )
        return 1
    print(
        f"bench-check: passed (every ratio within {args.tolerance:.0%} of "
        f"{args.figures.name}, {committed.get('date', 'undated')})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
