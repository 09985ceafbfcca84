"""Play a game against agents from the terminal.

``primeval play --game GAME --players N --seat 0 --opponents heuristic [--seed S]``

The human takes seat ``--seat``; every other seat is an agent named as ``primeval evaluate``
names them (``random``, ``heuristic``, ``ppo:PATH``, ``mcts:...``): one spec for all of them,
or one per other seat in seat order. On the human's turn the board, the pending decision and the legal
choices (numbered ``1..k``) are printed; a line with a number picks that choice, ``q`` (or the
end of the input) quits. Opponents act on their own and each of their actions is printed as
one line. At the end the final ranking is printed.

Everything shown comes from the env's view (``env.view``), read as the human's seat: the
board, the decision, the names of the choices and of the opponents' actions, which never
name what the human may not see (an opponent's hidden cards in Origin). Nothing here knows
which game is played.

The logic is :func:`play_cli` (``args`` as parsed by the ``play`` subcommand), which reads and
writes the streams it is given, so it can be driven by ``io.StringIO`` in tests.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

import numpy as np

from primeval.envs.games import GAMES, make_raw_env
from primeval.training.agents import make_agent
from primeval.training.evaluate import ranks_of

__all__ = ["PlayError", "opponent_specs", "play_cli", "read_choice"]

QUIT_WORDS = ("q", "quit")


class PlayError(ValueError):
    """Bad ``play`` arguments (seat, opponents)."""


def opponent_specs(num_players: int, seat: int, opponents: list[str]) -> list[str | None]:
    """The agent spec of every seat (``None`` for the human's seat).

    Args:
        num_players: Seats in the game.
        seat: The human's seat.
        opponents: One spec for every other seat, or one spec per other seat in seat order.

    Raises:
        PlayError: Seat out of range or a wrong number of opponent specs.
    """
    if not 0 <= seat < num_players:
        raise PlayError(f"--seat {seat} is out of range: {num_players} players have seats "
                        f"0..{num_players - 1}")
    others = num_players - 1
    if len(opponents) == 1:
        opponents = opponents * others
    elif len(opponents) != others:
        raise PlayError(f"--opponents needs one spec for all {others} other seats or one per "
                        f"other seat ({others}), got {len(opponents)}: {opponents}")
    specs: list[str | None] = list(opponents)
    specs.insert(seat, None)
    return specs


def read_choice(count: int, stdin: TextIO, stdout: TextIO) -> int | None:
    """Prompt until a line names a choice ``1..count``; the 0-based choice, or ``None`` to
    quit (``q`` or the end of the input)."""
    while True:
        stdout.write(f"your choice (1-{count}, q to quit): ")
        stdout.flush()
        line = stdin.readline()
        if line == "":  # end of input
            stdout.write("\n")
            return None
        text = line.strip()
        if not _isatty(stdin):  # piped input: echo it, as a terminal would
            stdout.write(text + "\n")
        if text.lower() in QUIT_WORDS:
            return None
        try:
            number = int(text)
        except ValueError:
            number = None
        if number is not None and 1 <= number <= count:
            return number - 1
        shown = repr(text) if text else "an empty line"
        print(f"{shown} is not a number between 1 and {count}", file=stdout)


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _fmt_score(score: float) -> str:
    return f"{score:g}"


def play_cli(args: Any, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run ``primeval play``: one game, the human at ``args.seat``; returns the exit code.

    ``args`` needs ``game``, ``players`` (``None``: the game's default), ``seat``,
    ``opponents`` (a list of specs) and ``seed`` (``None``: fresh entropy).

    Raises:
        PlayError: Bad seat or opponent count.
        ValueError: Unknown game or agent spec (from ``make_raw_env`` / ``make_agent``).
    """
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    game_name = args.game
    num_players = args.players or (GAMES[game_name].default_players if game_name in GAMES else 0)
    seed = args.seed
    env = make_raw_env(game_name, num_players)
    specs = opponent_specs(num_players, args.seat, list(args.opponents))
    agents: list[Any] = [
        None if spec is None
        else make_agent(spec, game_name, seed=None if seed is None else seed + 1000 * (s + 1),
                     trust_checkpoint=getattr(args, "trust_checkpoint", False))
        for s, spec in enumerate(specs)
    ]
    space = env.observation_space(env.possible_agents[0])["observation"]
    for agent in agents:
        if agent is not None and hasattr(agent, "check_spaces"):
            agent.check_spaces(space, env.action_space(env.possible_agents[0]))

    human = args.seat
    names = [f"player_{s}" + (" (you)" if s == human else f" ({spec})")
             for s, spec in enumerate(specs)]
    print(f"{game_name}, {num_players} players; you are player_{human}; "
          + ", ".join(names[s] for s in range(num_players) if s != human)
          + (f"; seed {seed}" if seed is not None else ""), file=stdout)

    env.reset(seed=seed)
    rules, view = env.rules, env.view
    for agent_name in env.agent_iter():
        if env.terminations[agent_name] or env.truncations[agent_name]:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent_name)
        state = env.game_state
        if seat == human:
            legal = np.flatnonzero(rules.legal_mask(state))
            print("", file=stdout)
            print(view.to_text(state, human), file=stdout)
            print("", file=stdout)
            print(f"Your decision: {view.describe_decision(state, human)}", file=stdout)
            for k, action in enumerate(legal, start=1):
                print(f"  {k:>3}. {view.action_name(state, int(action), human)}", file=stdout)
            picked = read_choice(len(legal), stdin, stdout)
            if picked is None:
                print("quit", file=stdout)
                return 0
            action = int(legal[picked])
            print(f"{agent_name} (you): {view.action_name(state, action, human)}", file=stdout)
        else:
            obs = env.observe(agent_name)
            action = int(agents[seat].act(obs["observation"], obs["action_mask"],
                                          state=state, seat=seat))
            print(f"{agent_name}: {view.action_name(state, action, human)}", file=stdout)
        env.step(action)

    state = env.game_state
    print("", file=stdout)
    print(view.to_text(state, human), file=stdout)
    print("", file=stdout)
    if not rules.is_terminal(state):
        print(f"game truncated after {env.num_steps} steps (max_steps); ranking by the "
              "current scores", file=stdout)
    scores = rules.scores(state)
    ranks = ranks_of(scores)
    print("Final ranking:", file=stdout)
    for s in sorted(range(num_players), key=lambda s: (ranks[s], s)):
        print(f"  rank {ranks[s]:g}: {names[s]}, score {_fmt_score(scores[s])}", file=stdout)
    return 0
