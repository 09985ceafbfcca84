"""Golden transcripts: one seeded random game per game and player count, written out as text.

A transcript (``tests/golden/<game>_<players>p.txt``) starts with a header naming the env and
its version (``primordial_soup_v1``), the registered id, the seed, ``max_steps``, the reward
mode and the rules config. Then, for every decision: the acting agent, the phase and the
decision kind, the state text (``render()`` in ``"ansi"`` mode), every legal action (id and
readable name) and the chosen one; and at the end the final state text, the scores and the
return of every agent. The actions are drawn uniformly from the legal ones by
``numpy.random.default_rng(seed)`` (:func:`~primeval.envs.testing.random_play.uniform`); the
env is reset with the same seed. There is one transcript for every game of the catalogue
(:data:`~primeval.envs.games.GAMES`) and every player count it supports.

``tests/envs/testing/test_golden.py`` (part of ``make test``) plays every game again and
compares it with the stored file. A transcript changes only when the rules change, and a
rules change bumps the env version (``primordial_soup_v1`` -> ``primordial_soup_v2``). The
files are written only by an explicit command, from the repository root::

    primeval golden --regenerate    # or: python -m primeval.envs.testing.golden --regenerate
    primeval golden                 # compare only; exit 1 on a difference
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from pathlib import Path

import numpy as np

from primeval.envs.games import GAMES, get_game
from primeval.envs.testing.random_play import random_steps, uniform

__all__ = ["CASES", "DEFAULT_DIR", "SEED", "check", "describe_mismatch", "file_name", "main",
           "transcript", "write"]

#: (game, players) of every transcript: every game of the catalogue, every player count.
CASES: tuple[tuple[str, int], ...] = tuple(
    (name, players) for name, game in GAMES.items() for players in game.player_counts)
#: Env seed and seed of the action choices.
SEED = 0
#: Where the transcripts live, relative to the repository root.
DEFAULT_DIR = Path("tests") / "golden"
REGENERATE = "primeval golden --regenerate"


def file_name(game: str, players: int) -> str:
    return f"{game}_{players}p.txt"


def transcript(game: str, players: int, seed: int = SEED) -> str:
    """The text transcript of one seeded random game (see the module docstring)."""
    env = get_game(game).raw_env(players, render_mode="ansi")
    lines = [
        "# primeval golden transcript: generated, do not edit by hand.",
        "# It changes only with a rules change, which also bumps the env version (v0 -> v1);",
        f"# then, from the repository root: {REGENERATE}",
        f"env: {env.metadata['name']}",
        f"id: {get_game(game).aec_id}",
        f"game: {game}",
        f"players: {players}",
        f"seed: {seed} (env.reset(seed={seed}); each action uniform over the legal ones, "
        f"numpy default_rng({seed}))",
        f"max_steps: {env.max_steps}",
        f"reward_mode: {env.reward_mode}",
        f"config: {json.dumps(env.rules.config.to_dict())}",
        "",
    ]
    env.reset(seed=seed)
    returns: dict[str, float] = {}
    ended = ""
    step = 0
    # What the next agent to act sees: random_steps yields a step once it is taken, so the
    # state and its text are kept from before it.
    state, board = env.game_state, env.render()
    for turn in random_steps(env, np.random.default_rng(seed), uniform):
        if turn.action is None:
            returns[turn.agent] = turn.reward
            ended = "terminated" if turn.termination else "truncated"
        else:
            step += 1
            legal = [int(a) for a in np.flatnonzero(turn.observation["action_mask"])]
            lines += [
                f"=== step {step}: {turn.agent} | phase {turn.info['phase']} | "
                f"decision {turn.info.get('decision', '-')}",
                board,
                f"legal ({len(legal)}):",
                *(f"  {a} {env.rules.action_to_str(state, a)}" for a in legal),
                f"chosen: {turn.action} {env.rules.action_to_str(state, turn.action)}",
                "",
            ]
        state, board = env.game_state, env.render()
    lines += [
        f"=== end: {ended} after {step} steps",
        board,
        "scores: " + ", ".join(f"{agent} {score!r}" for agent, score in
                               zip(env.possible_agents, env.rules.scores(env.game_state),
                                   strict=True)),
        "returns: " + ", ".join(f"{agent} {returns[agent]!r}" for agent in env.possible_agents),
    ]
    return "\n".join(lines) + "\n"
def describe_mismatch(expected: str, actual: str, path: Path | str, context: int = 3,
                      max_lines: int = 80) -> str:
    """Where a regenerated transcript first differs from the stored file, with a diff."""
    old, new = expected.splitlines(), actual.splitlines()
    first = next((i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b),
                 min(len(old), len(new)))
    step = next((line for line in reversed(new[:first + 1]) if line.startswith("=== ")),
                "the header")
    diff = list(difflib.unified_diff(old, new, f"{path} (stored)", "regenerated now",
                                     n=context, lineterm=""))
    shown = diff[:max_lines] + ([f"... ({len(diff) - max_lines} more diff lines)"]
                                if len(diff) > max_lines else [])
    return (f"golden transcript {path} differs from the game played now, first at line "
            f"{first + 1} ({step}).\n"
            "If this is a deliberate rules change: bump the env version (v0 -> v1) and run "
            f"`{REGENERATE}` from the repository root. Otherwise the change broke "
            "determinism or the rules.\n" + "\n".join(shown))


def write(folder: Path | str = DEFAULT_DIR) -> list[Path]:
    """Write every transcript into ``folder`` (created if missing); returns the files."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for game, players in CASES:
        path = folder / file_name(game, players)
        path.write_text(transcript(game, players), encoding="utf-8", newline="\n")
        paths.append(path)
    return paths


def check(folder: Path | str = DEFAULT_DIR) -> list[str]:
    """A message per transcript that is missing or differs (empty: all match)."""
    folder = Path(folder)
    problems = []
    for game, players in CASES:
        path = folder / file_name(game, players)
        if not path.is_file():
            problems.append(f"golden transcript {path} is missing; run `{REGENERATE}` from the "
                            "repository root")
            continue
        expected = path.read_text(encoding="utf-8")
        actual = transcript(game, players)
        if actual != expected:
            problems.append(describe_mismatch(expected, actual, path))
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="primeval golden", description="Compare (default) or regenerate the golden "
        "transcripts: one seeded random game per game and player count.")
    add_arguments(parser)
    return golden_cli(parser.parse_args(argv))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--regenerate", "--write", action="store_true",
                        help="overwrite the stored transcripts (only for a rules change, "
                        "with the env version bumped)")
    parser.add_argument("--dir", default=str(DEFAULT_DIR),
                        help=f"folder of the transcripts (default {DEFAULT_DIR}, relative to "
                        "the repository root)")


def golden_cli(args: argparse.Namespace) -> int:
    folder = Path(args.dir)
    if not folder.is_dir():
        print(f"primeval golden: no folder {folder}; run from the repository root or pass "
              "--dir", file=sys.stderr)
        return 2
    if args.regenerate:
        for path in write(folder):
            print(f"wrote {path} ({path.stat().st_size:,} bytes)")
        return 0
    problems = check(folder)
    for problem in problems:
        print(problem, file=sys.stderr)
    if not problems:
        print(f"all {len(CASES)} golden transcripts in {folder} match")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
