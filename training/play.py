"""Play a game against agents from the terminal.

``primeval play --game primordial_soup --players 4 --seat 0 --opponents heuristic [--seed S]``

The human takes seat ``--seat``; every other seat is an agent named as ``primeval evaluate``
names them (``random``, ``heuristic``, ``ppo:PATH``): one spec for all of them, or one per
other seat in seat order. On the human's turn the board, the pending decision and the legal
choices (numbered ``1..k``) are printed; a line with a number picks that choice, ``q`` (or the
end of the input) quits. Opponents act on their own and each of their actions is printed as
one line. At the end the final ranking is printed.

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

__all__ = ["PlayError", "choice_name", "decision_text", "opponent_specs", "play_cli",
           "public_choice_name", "read_choice"]

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


def decision_text(rules: Any, state: Any) -> str:
    """The pending decision in words, with the game's own readable renderer when it has one."""
    try:
        if rules.name == "primordial_soup":
            from primeval.envs.primordial_soup.render import describe_decision

            return describe_decision(state)
        if rules.name == "origin":
            from primeval.envs.origin.render import describe_pending

            return describe_pending(state, rules)
    except Exception:  # noqa: BLE001  (a display helper must not stop the game)
        pass
    describe = getattr(rules, "describe_decision", None)
    return describe(state) if describe is not None else rules.phase_name(state)


def choice_name(rules: Any, state: Any, action: int) -> str:
    """``layout.describe(action)`` (via ``rules.action_to_str``) plus, where it helps, the
    same choice with absolute players, colours, territory and card names."""
    base = rules.action_to_str(state, action)
    try:
        if rules.name == "primordial_soup":
            extra = _soup_details(rules, state, action)
        elif rules.name == "origin":
            extra = _origin_details(rules, state, action)
        else:
            extra = ""
    except Exception:  # noqa: BLE001  (a display helper must not stop the game)
        extra = ""
    return f"{base} = {extra}" if extra else base


def _soup_details(rules: Any, state: Any, action: int) -> str:
    from primeval.envs.primordial_soup.actions import MEALS, TAKES
    from primeval.envs.primordial_soup.render import COLOUR_LETTERS

    segment, index = rules.layout.decode(action)
    actor = rules.current_player(state)
    n = state.num_players

    def counts(cubes: tuple[int, ...], first_offset: int) -> str:
        parts = []
        for k, count in enumerate(cubes):
            if count:
                p = (actor + first_offset + k) % n
                parts.append(f"{count} {COLOUR_LETTERS[p]} (player_{p})")
        return " + ".join(parts)

    if segment == "eat":
        return "eat " + counts(MEALS[index], 1)
    if segment == "tentacle":
        return "take along " + counts(TAKES[index], 0)
    if segment == "attack":
        rel, amoeba = index
        return f"attack player_{(actor + rel) % n}'s amoeba #{amoeba + 1}"
    if segment == "parasite_host":
        return f"player_{(actor + index + 1) % n} pays"
    return ""


_ORIGIN_TERRITORY_SEGMENTS = ("evolve_at", "migrate_from", "migrate_to", "swap_from",
                              "swap_onto", "choose_territory")
_ORIGIN_CARD_SEGMENTS = ("keep_objective", "play_card", "return_card", "take_card",
                         "give_card")


def _origin_details(rules: Any, state: Any, action: int) -> str:
    from primeval.envs.origin.actions import pawn_name
    from primeval.envs.origin.render import card_label, owner_name

    segment, index = rules.layout.decode(action)
    world = rules.data.world
    if segment in _ORIGIN_TERRITORY_SEGMENTS:
        terr = world.territories[index]
        text = f"{terr.id} {terr.name} ({terr.colour})"
        if state.pawn[index] >= 0:
            text += (f", {pawn_name(rules.data, state.pawn[index])} of "
                     f"{owner_name(state.owner[index])}")
        return text
    if segment in _ORIGIN_CARD_SEGMENTS:
        return card_label(rules, index)
    if segment == "choose_player":
        actor = rules.current_player(state)
        return f"player_{(actor + index + 1) % state.num_players}"
    if segment == "take_tile":
        level = state.slots[index]
        return f"a level {level} tile" if level else "an empty slot"
    if segment == "choose_strait":
        a, b = world.straits[index]
        return (f"strait {world.territories[a].id}-{world.territories[b].id}, token "
                f"{state.strait_value[index]}")
    return ""


#: Origin choices of a card that only the actor (and the other party of a barter) sees.
_ORIGIN_SECRET_CARD_SEGMENTS = ("keep_objective", "return_card", "take_card", "give_card")


def public_choice_name(rules: Any, state: Any, action: int, viewer: int) -> str:
    """:func:`choice_name` as seat ``viewer`` may see another seat's action: in Origin the card
    an opponent keeps, returns or barters is shown only by its colour (unless ``viewer`` is
    the other party of the barter), as the observations hide it."""
    if rules.name == "origin":
        try:
            segment, index = rules.layout.decode(action)
            frame = state.stack[-1] if state.stack else {}
            if (segment in _ORIGIN_SECRET_CARD_SEGMENTS and rules.current_player(state) != viewer
                    and frame.get("victim", -1) != viewer):
                return f"{segment}(a {rules.data.cards[index].colour} card)"
        except Exception:  # noqa: BLE001  (a display helper must not stop the game)
            return rules.layout.segment_of(action)
    return choice_name(rules, state, action)


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
        else make_agent(spec, game_name, seed=None if seed is None else seed + 1000 * (s + 1))
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
    rules = env.rules
    for agent_name in env.agent_iter():
        if env.terminations[agent_name] or env.truncations[agent_name]:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent_name)
        state = env.game_state
        if seat == human:
            legal = np.flatnonzero(rules.legal_mask(state))
            print("", file=stdout)
            print(rules.to_text(state), file=stdout)
            print("", file=stdout)
            print(f"Your decision: {decision_text(rules, state)}", file=stdout)
            for k, action in enumerate(legal, start=1):
                print(f"  {k:>3}. {choice_name(rules, state, int(action))}", file=stdout)
            picked = read_choice(len(legal), stdin, stdout)
            if picked is None:
                print("quit", file=stdout)
                return 0
            action = int(legal[picked])
            print(f"{agent_name} (you): {choice_name(rules, state, action)}", file=stdout)
        else:
            obs = env.observe(agent_name)
            action = int(agents[seat].act(obs["observation"], obs["action_mask"],
                                          state=state, seat=seat))
            print(f"{agent_name}: {public_choice_name(rules, state, action, human)}",
                  file=stdout)
        env.step(action)

    state = env.game_state
    print("", file=stdout)
    print(rules.to_text(state), file=stdout)
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
