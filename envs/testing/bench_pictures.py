"""How long an ``rgb_array`` picture takes: the fast path against the reference, same run.

``python -m primeval.envs.testing.bench_pictures`` plays seeded random games of each game
(``--games`` of them, seeds ``--seed``, ``--seed + 1``, ...) and draws the picture after
every step, as a video would, with the fast path (``view.to_rgb_array``, what
``env.render()`` returns) and, every ``--reference-every``-th frame, with the reference drawing
(``view_picture.to_rgb_array_reference``, the plain matplotlib figure) on the same state,
interleaved, so that a machine whose speed drifts shifts both alike. It prints per game:

* the median, 90th percentile and mean ms per frame of each, and their ratio (medians);
* the first frame of the process (the fast path has nothing cached yet);
* whether every compared frame was equal pixel for pixel (the tests check it too);
* with ``--render-test``, PettingZoo's ``render_test`` (every render mode) with each path,
  each in a new process.

``--json`` prints one JSON document. The target of issue 17 is a median of at most
:data:`TARGET_MS` per frame. Benchmarks print numbers; tests never assert a speed.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import importlib
import json
import statistics
import time
from collections.abc import Iterator
from typing import Any

import numpy as np

from primeval.envs.games import GAMES, get_game
from primeval.envs.testing.bench import machine

TARGET_MS = 50.0


def _picture(game: str) -> tuple[str, Any]:
    """The game's picture module and the argument its functions take after the state (its
    descriptor's ``picture`` and ``picture_argument``).

    Raises:
        ValueError: An unknown game, or one without a picture.
    """
    spec = get_game(game)
    if spec.picture is None:
        raise ValueError(f"game {game!r} has no picture (its descriptor names none); "
                         f"games with one: {', '.join(n for n, g in GAMES.items() if g.picture)}")
    return spec.picture, spec.picture_argument


def _states(game: str, players: int, games: int, seed: int, max_frames: int
            ) -> Iterator[tuple[Any, Any]]:
    """``(raw env, state)`` after every step of seeded random games, up to ``max_frames``."""
    frames = 0
    for g in range(games):
        env = get_game(game).raw_env(players, render_mode="rgb_array", max_steps=None)
        env.reset(seed=seed + g)
        rng = np.random.default_rng(seed + g)
        while True:
            yield env, env.game_state
            frames += 1
            if frames >= max_frames or env.rules.is_terminal(env.game_state):
                break
            mask = env.rules.legal_mask(env.game_state)
            env.step(int(rng.choice(np.flatnonzero(mask))))
        if frames >= max_frames:
            return


def _summary(seconds: list[float]) -> dict[str, float]:
    ms = sorted(1000 * s for s in seconds)
    return {"frames": len(ms), "median_ms": statistics.median(ms),
            "p90_ms": ms[min(len(ms) - 1, int(0.9 * len(ms)))],
            "mean_ms": statistics.fmean(ms)}


def bench_pictures(game: str, players: int, games: int = 3, seed: int = 0,
                   max_frames: int = 600, reference_every: int = 10) -> dict[str, Any]:
    """The fast path on every frame of the games, the reference on every
    ``reference_every``-th, on the same states; timings and whether they were equal."""
    module_name, argument = _picture(game)
    module = importlib.import_module(module_name)
    fast: list[float] = []
    reference: list[float] = []
    fast_on_reference_frames: list[float] = []
    equal = True
    first = None
    for i, (env, state) in enumerate(_states(game, players, games, seed, max_frames)):
        start = time.perf_counter()
        picture = env.view.to_rgb_array(state)
        elapsed = time.perf_counter() - start
        fast.append(elapsed)
        if first is None:
            first = elapsed
        if i % reference_every == 0:
            fast_on_reference_frames.append(elapsed)
            start = time.perf_counter()
            expected = module.to_rgb_array_reference(state, argument(env))
            reference.append(time.perf_counter() - start)
            equal = equal and bool(np.array_equal(picture, expected))
    report = {"game": game, "players": players, "games": games, "seed": seed,
              "fast": _summary(fast), "reference": _summary(reference),
              "fast_on_reference_frames": _summary(fast_on_reference_frames),
              "first_fast_frame_ms": 1000 * (first or 0.0), "equal": equal}
    report["ratio"] = report["reference"]["median_ms"] / report["fast"]["median_ms"]
    return report


@contextlib.contextmanager
def _reference_pictures(game: str) -> Iterator[None]:
    """``view.to_rgb_array`` draws with the reference while inside (for ``render_test``)."""
    module = importlib.import_module(_picture(game)[0])
    fast = module.to_rgb_array
    module.to_rgb_array = module.to_rgb_array_reference
    try:
        yield
    finally:
        module.to_rgb_array = fast


def time_render_test(game: str, players: int, reference: bool) -> float:
    """Seconds of PettingZoo's ``render_test`` (every render mode) in this process, with the
    reference pictures or the fast ones."""
    import io
    from contextlib import redirect_stdout

    from pettingzoo.test import render_test

    with _reference_pictures(game) if reference else contextlib.nullcontext():
        start = time.perf_counter()
        with redirect_stdout(io.StringIO()):  # human mode prints the board
            render_test(lambda render_mode=None: get_game(game).env(
                players, render_mode=render_mode))
        return time.perf_counter() - start


def bench_render_test(game: str, players: int) -> dict[str, float]:
    """Seconds of ``render_test`` with the reference, then the fast path, each in a new
    Python process (as a test run meets it: nothing imported, drawn or cached yet)."""
    import subprocess
    import sys

    def run(reference: bool) -> float:
        code = ("from primeval.envs.testing.bench_pictures import time_render_test; "
                f"print(time_render_test({game!r}, {players}, {reference}))")
        out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                             text=True).stdout
        return float(out.split()[-1])

    return {"reference_s": run(True), "fast_s": run(False)}


def report_lines(report: dict[str, Any]) -> list[str]:
    m = report["machine"]
    lines = [f"{report['date']}: {m['cpu']}, {m['cores']} cores, Python {m['python']}, "
             f"matplotlib {report['matplotlib']}"]
    for g in report["games"]:
        f, r = g["fast"], g["reference"]
        lines.append(
            f"{g['game']} {g['players']}p: fast {f['median_ms']:.1f} ms/frame median "
            f"(p90 {f['p90_ms']:.1f}, mean {f['mean_ms']:.1f}, {f['frames']} frames), "
            f"reference {r['median_ms']:.1f} ms median (p90 {r['p90_ms']:.1f}, "
            f"{r['frames']} frames): {g['ratio']:.1f}x; first fast frame "
            f"{g['first_fast_frame_ms']:.0f} ms; equal: {g['equal']}")
        if "render_test" in g:
            t = g["render_test"]
            lines.append(f"  render_test (new process): reference {t['reference_s']:.2f} s, "
                         f"fast {t['fast_s']:.2f} s")
        ok = f["median_ms"] <= TARGET_MS
        lines.append(f"  target median <= {TARGET_MS:.0f} ms: {'met' if ok else 'NOT met'}")
    return lines


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m primeval.envs.testing.bench_pictures",
                                     description=__doc__.splitlines()[0])
    pictured = [name for name, game in GAMES.items() if game.picture is not None]
    parser.add_argument("--game", choices=sorted(pictured), action="append",
                        help="repeatable; default: every game with a picture")
    parser.add_argument("--players", type=int, default=None,
                        help="default: each game's default")
    parser.add_argument("--games", type=int, default=3, help="seeded games per game")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--frames", type=int, default=600, help="at most, per game")
    parser.add_argument("--reference-every", type=int, default=10)
    parser.add_argument("--render-test", action="store_true",
                        help="also time PettingZoo's render_test with each path")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args(argv)
    if args.games < 1 or args.frames < 1 or args.reference_every < 1:
        raise SystemExit("--games, --frames and --reference-every must be >= 1")
    import matplotlib

    report: dict[str, Any] = {"date": datetime.date.today().isoformat(),
                              "machine": machine(), "matplotlib": matplotlib.__version__,
                              "games": []}
    for game in args.game or pictured:
        players = args.players or GAMES[game].default_players
        g = bench_pictures(game, players, args.games, args.seed, args.frames,
                           args.reference_every)
        if args.render_test:
            g["render_test"] = bench_render_test(game, players)
        report["games"].append(g)
    print(json.dumps(report, indent=2) if args.json else "\n".join(report_lines(report)))
    return report


if __name__ == "__main__":
    main()
