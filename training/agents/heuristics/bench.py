"""The heuristics' cost per decision: the fast default against the plain reference.

Usage::

    python -m primeval.training.agents.heuristics.bench --rounds 3 [--game origin]

records positions from seeded games (each decision answered by the reference heuristic or,
with probability ``random_share``, a uniformly random legal action), then times, in the same
process and interleaved round by round (reference, fast, reference, fast, ...), the reference
and the fast heuristic answering every recorded position, and one random-play env step
(``env.step`` with a random legal action, the issue's unit). It prints per game the least
CPU microseconds (``time.process_time``) over the rounds per decision of both, their ratio,
and each over one env step. Only ratios within one run mean much on a shared machine.

:func:`record_positions` is also what the equality test
(``tests/training/agents/heuristics/test_fast_equals_reference.py``) asks both agents about.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections.abc import Iterator
from typing import Any

import numpy as np

from primeval.envs.games import make_raw_env
from primeval.training.agents.heuristics.origin import OriginHeuristic, ReferenceOriginHeuristic
from primeval.training.agents.heuristics.primordial_soup import (
    PrimordialSoupHeuristic,
    ReferencePrimordialSoupHeuristic,
)
from primeval.training.seeding import Seeds

__all__ = ["PAIRS", "Position", "bench", "main", "record_positions"]

#: Per game: (reference class, fast class, default player count).
PAIRS: dict[str, tuple[type, type, int]] = {
    "origin": (ReferenceOriginHeuristic, OriginHeuristic, 3),
    "primordial_soup": (ReferencePrimordialSoupHeuristic, PrimordialSoupHeuristic, 4),
}

#: (rules, state, action mask, acting seat) of one recorded decision.
Position = tuple[Any, Any, np.ndarray, int]


def record_positions(
    game: str, num_players: int, games: int, seed: int = 0, random_share: float = 0.3, **config: Any
) -> Iterator[Position]:
    """Positions with more than one legal action from ``games`` seeded games of ``game``.

    Every decision is answered by the reference heuristic (seeded from ``seed``) or, with
    probability ``random_share``, by a uniformly random legal action; ``config`` goes to the
    env (rules variants). Each position's state is a copy, safe to keep.
    """
    reference_class = PAIRS[game][0]
    env = make_raw_env(game, num_players=num_players, **config)
    rules = env.unwrapped.rules
    rng = np.random.default_rng(seed)
    games_seeds = Seeds(seed).child("positions")
    player = reference_class(rules, seed=seed)
    for g in range(games):
        env.reset(seed=games_seeds.spawn(g))
        raw = env.unwrapped
        for name in raw.agent_iter():
            obs, _r, termination, truncation, _i = raw.last()
            if termination or truncation:
                raw.step(None)
                continue
            mask = np.asarray(obs["action_mask"])
            seat = raw.possible_agents.index(name)
            state = raw.game_state
            if np.count_nonzero(mask) > 1:
                yield rules, state.copy(), mask.copy(), seat
            if rng.random() < random_share:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                action = player.act(None, mask, state=state, seat=seat)
            raw.step(action)


def _clock() -> float:
    """CPU seconds of this process: on a shared machine, less noisy than the wall clock
    (time spent waiting for a core is not counted)."""
    return time.process_time()


def _time_agent(agent_class, positions: list[Position]) -> float:
    """Seconds per decision of a fresh seeded agent over all positions."""
    agent = agent_class(positions[0][0], seed=0)
    start = _clock()
    for _rules, state, mask, seat in positions:
        agent.act(None, mask, state=state, seat=seat)
    return (_clock() - start) / len(positions)


def _time_env_step(game: str, num_players: int, steps: int, seed: int) -> float:
    """Seconds per random-play ``env.step`` (random legal actions, resets not counted)."""
    env = make_raw_env(game, num_players=num_players)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    spent, done = 0.0, 0
    while done < steps:
        _obs, _r, termination, truncation, _i = env.last()
        if termination or truncation:
            env.reset(seed=int(rng.integers(1 << 30)))
            continue
        mask = env.last()[0]["action_mask"]
        action = int(rng.choice(np.flatnonzero(mask)))
        start = _clock()
        env.step(action)
        spent += _clock() - start
        done += 1
    return spent / steps


def bench(
    game: str, rounds: int, games: int = 4, num_players: int | None = None, seed: int = 0
) -> dict[str, float]:
    """The least CPU microseconds per decision (reference, fast) and per env step over
    ``rounds`` interleaved rounds (the least is the run least disturbed by other jobs), and
    the ratios."""
    reference_class, fast_class, default_players = PAIRS[game]
    players = num_players or default_players
    positions = list(record_positions(game, players, games, seed))
    ref, fast, step = [], [], []
    for _ in range(rounds):
        ref.append(_time_agent(reference_class, positions))
        fast.append(_time_agent(fast_class, positions))
        step.append(_time_env_step(game, players, 2000, seed))
    ref_us, fast_us, step_us = (min(x) * 1e6 for x in (ref, fast, step))
    return {
        "positions": len(positions),
        "players": players,
        "reference_us": ref_us,
        "fast_us": fast_us,
        "step_us": step_us,
        "speedup": ref_us / fast_us,
        "reference_per_step": ref_us / step_us,
        "fast_per_step": fast_us / step_us,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m primeval.training.agents.heuristics.bench",
        description=__doc__.split("\n\n")[0],
    )
    parser.add_argument("--rounds", type=int, default=3, help="interleaved timing rounds")
    parser.add_argument("--games", type=int, default=4, help="seeded games recorded per game")
    parser.add_argument(
        "--game", choices=sorted(PAIRS), action="append", help="a game (repeatable; default: both)"
    )
    parser.add_argument("--players", type=int, default=None, help="player count")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.games < 1:
        parser.error("--rounds and --games must be at least 1")
    print(
        f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.machine()}, "
        f"Python {platform.python_version()}, load {_load()}, rounds {args.rounds}"
    )
    print(
        "| game | players | positions | reference µs | fast µs | speedup | env step µs "
        "| reference / step | fast / step |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for game in args.game or ["primordial_soup", "origin"]:
        r = bench(game, args.rounds, args.games, args.players, args.seed)
        print(
            f"| {game} | {r['players']} | {r['positions']} | {r['reference_us']:.1f} "
            f"| {r['fast_us']:.1f} | {r['speedup']:.2f}x | {r['step_us']:.1f} "
            f"| {r['reference_per_step']:.3f} | {r['fast_per_step']:.3f} |"
        )
        sys.stdout.flush()
    return 0


def _load() -> str:
    try:
        with open("/proc/loadavg") as f:
            return f.read().split()[0]
    except OSError:
        return "?"


if __name__ == "__main__":
    sys.exit(main())
