"""The cost of one rules step as a planner pays it, without the env, beside ``env.step``.

``python -m primeval.envs.testing.bench_rules [--game G] [--players N] [--seconds S]``
plays seeded random games at rules level and times, per game and player count:

* **rules**: ``rules.legal_mask(state)`` then ``rules.apply(state, action, rng)`` (which
  copies the state, applies the action and carries out the automatic steps up to the next
  decision), with a numpy generator: one step of a rollout or of a tree descent;
* **planner**: the same step the way :class:`~primeval.training.agents.mcts.MCTSAgent`
  takes it in its tree, ``legal_mask`` then
  :meth:`ExplicitChance.apply <primeval.envs.core.chance.ExplicitChance.apply>` and
  ``apply_chance`` for every chance node met on the way (outcomes drawn with their
  probabilities), no node cache;
* **env**: ``env.step`` through the game's ``raw_env()`` (the mask read with
  ``action_mask``, no observation encoded), for comparison.

Only the calls named are timed (the action draw is not), on the wall clock
(``time.perf_counter``) or, with ``--cpu``, on the process's CPU time (``time.process_time``,
which waiting for a core on a shared machine does not count); figures are microseconds per
step and steps per second, the median of ``--repeats`` runs of ``--seconds`` each, taken
round-robin. ``--baseline DIR`` measures the rules of another checkout of the package (a
source tree, e.g. ``git archive main | tar -x -C /tmp/old``) in the same run, interleaved
(old, new, old, new), each run in a fresh process, and prints new over old as ratios.
Benchmarks print numbers; tests never assert a speed.
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
from typing import Any

import numpy as np

MODES = ("rules", "planner", "env")
#: The clocks a run may be timed with (``--cpu``: the process's CPU time).
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def _rules_of(game: str, players: int) -> Any:
    from primeval.envs.games import get_game

    return get_game(game).raw_env(num_players=players).rules


def _draw(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = mask.nonzero()[0]
    return int(legal[int(rng.random() * legal.size)])


def bench_rules(
    game: str, players: int, seconds: float, seed: int = 0, clock: str = "wall"
) -> dict[str, float]:
    """Random games of ``legal_mask`` + ``apply`` for about ``seconds`` of timed calls."""
    rules = _rules_of(game, players)
    choice = np.random.default_rng(seed)
    clock = CLOCKS[clock]
    mask_time = apply_time = 0.0
    steps = games = 0
    while mask_time + apply_time < seconds:
        rng = np.random.default_rng(seed + games)
        state = rules.initial_state(rng)
        while not rules.is_terminal(state):
            t0 = clock()
            mask = rules.legal_mask(state)
            t1 = clock()
            action = _draw(mask, choice)
            t2 = clock()
            state = rules.apply(state, action, rng)
            t3 = clock()
            mask_time += t1 - t0
            apply_time += t3 - t2
            steps += 1
        games += 1
    total = mask_time + apply_time
    return {
        "us_per_step": 1e6 * total / steps,
        "steps_per_second": steps / total,
        "legal_mask_us": 1e6 * mask_time / steps,
        "apply_us": 1e6 * apply_time / steps,
        "steps": steps,
        "games": games,
    }


def bench_planner(
    game: str, players: int, seconds: float, seed: int = 0, clock: str = "wall"
) -> dict[str, float]:
    """Random games of ``legal_mask`` + explicit-chance ``apply`` (chance nodes sampled)."""
    from primeval.envs.core.chance import ChanceNode, ExplicitChance

    rules = _rules_of(game, players)
    chance = ExplicitChance(rules)
    choice = np.random.default_rng(seed)
    clock = CLOCKS[clock]
    elapsed = 0.0
    steps = games = 0
    while elapsed < seconds:
        state = chance.resolve(chance.initial_state(), np.random.default_rng(seed + games))
        while not rules.is_terminal(state):
            t0 = clock()
            mask = rules.legal_mask(state)
            t1 = clock()
            action = _draw(mask, choice)
            t2 = clock()
            state = chance.apply(state, action)
            while isinstance(state, ChanceNode):
                state = chance.apply_chance(state, state.event.sample(choice))
            t3 = clock()
            elapsed += (t1 - t0) + (t3 - t2)
            steps += 1
        games += 1
    return {
        "us_per_step": 1e6 * elapsed / steps,
        "steps_per_second": steps / elapsed,
        "steps": steps,
        "games": games,
    }


def bench_env(
    game: str, players: int, seconds: float, seed: int = 0, clock: str = "wall"
) -> dict[str, float]:
    """Random games through ``raw_env().step`` (mask from ``action_mask``)."""
    from primeval.envs.games import get_game

    env = get_game(game).raw_env(num_players=players)
    choice = np.random.default_rng(seed)
    clock = CLOCKS[clock]
    elapsed = 0.0
    steps = games = 0
    while elapsed < seconds:
        env.reset(seed=seed + games)
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                t0 = clock()
                env.step(None)
                elapsed += clock() - t0
                continue
            t0 = clock()
            mask = env.action_mask(agent, bool)
            t1 = clock()
            action = _draw(mask, choice)
            t2 = clock()
            env.step(action)
            t3 = clock()
            elapsed += (t1 - t0) + (t3 - t2)
            steps += 1
        games += 1
    return {
        "us_per_step": 1e6 * elapsed / steps,
        "steps_per_second": steps / elapsed,
        "steps": steps,
        "games": games,
    }


BENCHES = {"rules": bench_rules, "planner": bench_planner, "env": bench_env}


def one_round(
    cases: list[tuple[str, int]], modes: list[str], seconds: float, seed: int, clock: str = "wall"
) -> list[dict[str, Any]]:
    """One run of every mode of every case ``(game, players)``, timed on ``clock``."""
    return [
        {"game": g, "players": n, "mode": m, **BENCHES[m](g, n, seconds, seed, clock)}
        for g, n in cases
        for m in modes
    ]


def _median(runs: list[dict[str, Any]]) -> dict[str, Any]:
    out = {k: runs[0][k] for k in ("game", "players", "mode")}
    for key in runs[0]:
        if key not in out and key not in ("steps", "games"):
            out[key] = statistics.median(r[key] for r in runs)
    out["steps"] = sum(r["steps"] for r in runs)
    out["games"] = sum(r["games"] for r in runs)
    out["runs"] = len(runs)
    return out


def _collect(rounds: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    return [_median([r[i] for r in rounds]) for i in range(len(rounds[0]))]


# -- old against new, interleaved ---------------------------------------------------------------

_SOURCES = ("envs", "training", "wrappers", "configs")


def package_shim(tree: str, into: str) -> str:
    """A directory that makes ``import primeval`` load the source tree ``tree`` (a checkout
    of this repository: ``envs/_package`` is the top package, ``envs``, ``training``, ...
    its subpackages), for ``PYTHONPATH``."""
    tree = os.path.abspath(tree)
    if not os.path.isdir(os.path.join(tree, "envs", "_package")):
        raise SystemExit(f"--baseline {tree}: not a primeval source tree (no envs/_package in it)")
    top = os.path.join(into, "primeval")
    os.makedirs(top)
    package = os.path.join(tree, "envs", "_package")
    for name in os.listdir(package):
        if name.endswith(".py"):
            os.symlink(os.path.join(package, name), os.path.join(top, name))
    for name in _SOURCES:
        if os.path.isdir(os.path.join(tree, name)):
            os.symlink(os.path.join(tree, name), os.path.join(top, name))
    return into


def _run_worker(
    pythonpath: str | None,
    cases: list[tuple[str, int]],
    modes: list[str],
    seconds: float,
    seed: int,
    clock: str = "wall",
) -> list[dict[str, Any]]:
    """One :func:`one_round` in a fresh process, on the tree ``pythonpath`` points at (or
    the installed package)."""
    env = dict(os.environ)
    if pythonpath is None:
        env.pop("PYTHONPATH", None)
    else:
        env["PYTHONPATH"] = pythonpath
    spec = json.dumps(
        {"cases": cases, "modes": modes, "seconds": seconds, "seed": seed, "clock": clock}
    )
    code = (
        "import runpy, sys; spec, path = sys.argv[1:3]; "
        "sys.argv = ['bench_rules', '--worker', spec]; "
        "runpy.run_path(path, run_name='__main__')"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, spec, os.path.abspath(__file__)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        cwd=tempfile.gettempdir(),
    )
    if out.returncode:
        raise SystemExit(f"bench worker failed ({pythonpath or 'this tree'}):\n{out.stderr}")
    return json.loads(out.stdout)


def compare(
    baseline: str,
    cases: list[tuple[str, int]],
    modes: list[str],
    seconds: float,
    repeats: int,
    clock: str = "wall",
) -> dict[str, Any]:
    """Old (``baseline``) and new (this tree) in turns, a fresh process each run."""
    with tempfile.TemporaryDirectory(prefix="bench_rules_") as tmp:
        shim = package_shim(baseline, tmp)
        old_rounds, new_rounds = [], []
        for r in range(repeats):
            old = _run_worker(shim, cases, modes, seconds, 1000 * r, clock)
            new = _run_worker(None, cases, modes, seconds, 1000 * r, clock)
            if old["tree"] == new["tree"]:
                raise SystemExit(f"--baseline {baseline} is this tree ({new['tree']})")
            old_tree, new_tree = old["tree"], new["tree"]
            old_rounds.append(old["results"])
            new_rounds.append(new["results"])
    old, new = _collect(old_rounds), _collect(new_rounds)
    ratios = [
        {
            "game": o["game"],
            "players": o["players"],
            "mode": o["mode"],
            "speedup": n["steps_per_second"] / o["steps_per_second"],
        }
        for o, n in zip(old, new, strict=True)
    ]
    trees = {"old_tree": old_tree, "new_tree": new_tree}
    return {**trees, "old": old, "new": new, "ratios": ratios}


# -- report ---------------------------------------------------------------------------------------


def _line(r: dict[str, Any]) -> str:
    parts = (
        f"{r['game']} {r['players']}p {r['mode']:7s}: {r['us_per_step']:8.1f} µs/step "
        f"{r['steps_per_second']:9,.0f} steps/s"
    )
    if "legal_mask_us" in r:
        parts += f"  (legal_mask {r['legal_mask_us']:.1f} µs, apply {r['apply_us']:.1f} µs)"
    return parts


def report_lines(report: dict[str, Any]) -> list[str]:
    from primeval.envs.testing.bench import machine

    m = machine()
    lines = [
        f"machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}, "
        f"load {os.getloadavg()[0]:.2f}, clock {'cpu' if report['settings'].get('cpu') else 'wall'}"
    ]
    if "ratios" in report:
        lines.append(f"old = {report['old_tree']}, new = {report['new_tree']}")
        for o, n, q in zip(report["old"], report["new"], report["ratios"], strict=True):
            lines.append("old " + _line(o))
            lines.append("new " + _line(n))
            lines.append(
                f"    {q['game']} {q['players']}p {q['mode']}: new/old {q['speedup']:.2f}x steps/s"
            )
    else:
        lines += [_line(r) for r in report["results"]]
    return lines


def main(argv: list[str] | None = None) -> dict[str, Any]:
    from primeval.envs.games import GAMES

    parser = argparse.ArgumentParser(
        prog="python -m primeval.envs.testing.bench_rules", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--game", choices=sorted(GAMES), action="append", help="repeatable; default: every game"
    )
    parser.add_argument(
        "--players",
        type=int,
        action="append",
        help="repeatable; default: every player count of the game",
    )
    parser.add_argument(
        "--mode",
        choices=MODES,
        action="append",
        help="repeatable; default: all (rules, planner, env)",
    )
    parser.add_argument(
        "--seconds", type=float, default=3.0, help="timed seconds per run (default 3)"
    )
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--baseline",
        metavar="DIR",
        help="another source tree of the package: measure both, interleaved",
    )
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time on the process's CPU time (time.process_time), not the wall clock",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        spec = json.loads(args.worker)
        result = one_round(
            [tuple(c) for c in spec["cases"]],
            spec["modes"],
            spec["seconds"],
            spec["seed"],
            spec.get("clock", "wall"),
        )
        import primeval.envs

        tree = os.path.dirname(os.path.dirname(os.path.realpath(primeval.envs.__file__)))
        print(json.dumps({"tree": tree, "results": result}))
        return {"results": result}
    if args.seconds <= 0 or args.repeats < 1:
        parser.error("--seconds must be > 0 and --repeats >= 1")
    cases = []
    for g in args.game or sorted(GAMES):
        counts = GAMES[g].player_counts
        for n in args.players or counts:
            if n not in counts:
                parser.error(f"--players {n}: {g} takes {', '.join(map(str, counts))}")
            cases.append((g, n))
    modes = args.mode or list(MODES)
    clock = "cpu" if args.cpu else "wall"
    if args.baseline:
        report = {
            "baseline": args.baseline,
            "settings": vars(args),
            **compare(args.baseline, cases, modes, args.seconds, args.repeats, clock),
        }
    else:
        rounds = [
            one_round(cases, modes, args.seconds, 1000 * r, clock) for r in range(args.repeats)
        ]
        report = {"settings": vars(args), "results": _collect(rounds)}
    print(json.dumps(report, indent=2) if args.json else "\n".join(report_lines(report)))
    return report


if __name__ == "__main__":
    main()
