"""The Primordial Soup board as text, and the pending decision in words (part of the view).

``to_text(state, config)`` shows the round and phase, the environment card, the soup as a grid
in the board's layout (north up), the scoring ladder, every player's BP, genes and amoebas,
and the pending decision in words (:func:`describe_decision`). Players are ``player_0..``;
player ``p`` plays colour ``COLOUR_LETTERS[p]`` (R, G, B, Y). An amoeba is written ``P1#3*``:
owner ``player_1``, amoeba number 3, one ``*`` per damage point. Every line is at most
:data:`MAX_WIDTH` chars. The game has no hidden information: every player may see it all.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from primeval.envs.core.text import MAX_WIDTH, describe_pending, wrap_items
from primeval.envs.primordial_soup.config import PrimordialSoupConfig
from primeval.envs.primordial_soup.data import DIRECTIONS, GENE_INDEX, GENES
from primeval.envs.primordial_soup.rules.registry import DECISIONS
from primeval.envs.primordial_soup.state import GameState

__all__ = ["COLOUR_LETTERS", "MAX_WIDTH", "amoeba_label", "describe_decision", "to_text"]

#: Cube/amoeba colour of player ``p``.
COLOUR_LETTERS: tuple[str, ...] = ("R", "G", "B", "Y")
_CELL_WIDTH = 18  # inside width of one board cell; 5 columns fit in 100 chars


def amoeba_label(player: int, amoeba: int, damage: int) -> str:
    """``P<owner>#<number><damage stars>``, e.g. ``P1#3*`` (amoeba index 2, 1 damage)."""
    return f"P{player}#{amoeba + 1}{'*' * max(damage, 0)}"


def _colour(c: int) -> str:
    return COLOUR_LETTERS[c] if 0 <= c < len(COLOUR_LETTERS) else f"c{c}"


def _amoeba_name(player: int, amoeba: int) -> str:
    return f"player_{player}'s amoeba #{amoeba + 1}"


def _space_of(state: GameState, player: int, amoeba: int) -> int:
    if 0 <= player < state.num_players and 0 <= amoeba < len(state.players[player].amoeba_space):
        return state.players[player].amoeba_space[amoeba]
    return -1


def describe_decision(state: GameState, moves: Sequence[str] | None = None) -> str:
    """The pending decision in words, e.g. ``"player_2 chooses how amoeba #3 feeds ..."``;
    ``"next step: <kind> (automatic)"`` for an automatic step, ``"game over"`` at the end.
    ``moves``: at a move decision, the legal ways to move (``"drift"``, ``"active move"``,
    ``"hold"``), which the words list; the view passes the rules' (``None``: all three)."""
    return describe_pending(state, DECISIONS,
                            lambda frame: _describe_frame(state, frame, moves))


def _or_list(words: Sequence[str]) -> str:
    """``"a, b or c"``."""
    words = list(words)
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _describe_frame(state: GameState, f: dict[str, Any],
                    moves: Sequence[str] | None = None) -> str:
    """The words of one pending decision frame, with its amoeba, space and options."""
    kind = f.get("kind", "?")
    p = f.get("player", -1)
    who = f"player_{p}"
    a = f.get("amoeba", -1)
    am = f"amoeba #{a + 1}" if a >= 0 else "an amoeba"
    sp = _space_of(state, p, a)
    at = f" on space {sp}" if sp >= 0 else ""
    if kind == "start_space":
        return f"{who} chooses a ladder start space"
    if kind == "place_start":
        return f"{who} places a start amoeba on an empty space (damage {f.get('damage', 0)})"
    if kind == "move":
        options = _or_list(moves or ("drift", "active move", "hold"))
        return f"{who} chooses how {am}{at} moves ({options})"
    if kind == "direction":
        allowed = ", ".join(DIRECTIONS[d] for d in f.get("allowed", ()))
        what = "escape move" if f.get("mode") == "escape" else f"move {f.get('step', 1)}"
        return f"{who} chooses the direction of {am}{at} ({what}; allowed: {allowed})"
    if kind == "move_again":
        what = " (escape)" if f.get("mode") == "escape" else ""
        return f"{who} decides whether {am}{at} moves again{what}"
    if kind == "tentacle":
        clinging = ""
        if "mover_player" in f:
            mover = _amoeba_name(f["mover_player"], f.get("mover_amoeba", -1))
            clinging = f", clinging to {mover}"
        return (f"{who} chooses the cubes {am} takes along with Tentacle "
                f"from space {f.get('space')} to space {f.get('dest')}{clinging}")
    if kind == "cling":
        mover = _amoeba_name(f.get("mover_player", -1), f.get("mover_amoeba", -1))
        return (f"{who} decides whether {am} clings to {mover} "
                f"(space {f.get('space')} -> {f.get('dest')})")
    if kind == "feed":
        extra = " (Struggle already used)" if f.get("struggle_used") else ""
        return f"{who} chooses how {am}{at} feeds{extra}"
    if kind == "parasite_host":
        meal = " ".join(
            f"{n}x{_colour((p + i + 1) % state.num_players)}"
            for i, n in enumerate(f.get("meal", ())) if n
        )
        opt = " or no host" if f.get("optional") else ""
        return f"{who} chooses the host of {am}'s Parasitism (meal {meal}){opt}"
    if kind == "defend":
        used = [name for name in ("escape", "defense") if f.get(f"{name}_used")]
        extra = f"; used: {', '.join(used)}" if used else ""
        return (f"{who} decides whether {am} on space {f.get('space')} defends against "
                f"player_{f.get('attacker_player')}'s {f.get('attack_kind')} attack{extra}")
    if kind == "retry":
        by = f"{am}'s " if a >= 0 else ""
        return (f"{who} decides whether to retry {by}failed {f.get('attack_kind')} attack "
                f"on space {f.get('space')} (Persistence)")
    if kind == "defect":
        return f"{who} pays a gene defect: {f.get('remaining')} MP still due (give up genes or BP)"
    if kind == "buy":
        return f"{who} buys new genes (or passes)"
    if kind == "divide":
        extra = " (free amoeba used)" if f.get("free_used") else ""
        return f"{who} places new amoebas by cell division (or passes){extra}"
    if kind == "aggression":
        return f"{who} may attack a foreign amoeba with Aggression"
    return f"next step: {kind} (automatic)"


def _board_lines(state: GameState, config: PrimordialSoupConfig) -> list[str]:
    board = config.board
    index = {cell: s for s, cell in enumerate(board.cells)}
    n = state.num_players
    occupants: dict[int, list[str]] = {s: [] for s in range(board.num_spaces)}
    for p, ps in enumerate(state.players):
        for i, s in enumerate(ps.amoeba_space):
            if 0 <= s < board.num_spaces:
                occupants[s].append(amoeba_label(p, i, ps.amoeba_damage[i]))
    w = _CELL_WIDTH
    sep = "+" + "+".join(["-" * w] * board.width) + "+"
    lines = [sep]
    for y in range(board.height):
        cells: list[list[str]] = []
        for x in range(board.width):
            s = index.get((x, y))
            if (x, y) == board.island:
                deck = config.environment_deck
                drift = (deck[state.environment_card][0]
                         if 0 <= state.environment_card < len(deck) else "-")
                cells.append(["~~~ island ~~~".center(w), f"compass: {drift}".center(w)])
            elif s is None:
                cells.append([""])
            else:
                cubes = "".join(f"{_colour(c)}{state.cubes[s][c]}" for c in range(n))
                content = [f"{s:>2}: {cubes}"]
                row = ""
                for label in occupants[s]:
                    if row and len(row) + 1 + len(label) > w:
                        content.append(row)
                        row = label
                    else:
                        row = f"{row} {label}" if row else label
                if row:
                    content.append(row)
                cells.append(content)
        depth = max(len(c) for c in cells)
        for r in range(depth):
            parts = [(c[r] if r < len(c) else "")[:w].ljust(w) for c in cells]
            lines.append("|" + "|".join(parts) + "|")
        lines.append(sep)
    return lines


def _ladder_lines(state: GameState, config: PrimordialSoupConfig) -> list[str]:
    fzs = config.finish_zone_start
    top = max([fzs + 9] + [ps.score for ps in state.players])
    prefix = "  "
    if len(prefix) + top + 1 > MAX_WIDTH:  # very long ladders: list only
        track = ""
    else:
        cells = ["." if i < fzs else ":" for i in range(top + 1)]
        for p, ps in enumerate(state.players):
            if 0 <= ps.score <= top:
                cells[ps.score] = str(p)
        track = prefix + "".join(cells)
    ranking = ", ".join(
        f"player_{p} {state.players[p].score}" for p in state.descending()
    )
    lines = [f"Ladder (finish zone from {fzs}; digits are players, ':' the finish zone):"]
    if track:
        ruler = [" "] * (top + 3)
        for i in range(0, top + 1, 10):
            ruler[i : i + len(str(i))] = str(i)
        lines.append(prefix + "".join(ruler).rstrip())
        lines.append(track)
    lines += textwrap.wrap(f"Descending: {ranking}", MAX_WIDTH, subsequent_indent="  ")
    return lines


def _player_lines(state: GameState) -> list[str]:
    lines = []
    for p, ps in enumerate(state.players):
        genes = sorted(ps.genes, key=lambda k: GENE_INDEX.get(k, 99))
        gene_names = [
            GENES[GENE_INDEX[k]].name + (" (new)" if ps.genes[k] == state.round > 0 else "")
            if k in GENE_INDEX else k
            for k in genes
        ] or ["none"]
        amoebas = " ".join(
            f"{amoeba_label(p, i, ps.amoeba_damage[i])}@{s}"
            + ("(done)" if i < len(ps.amoeba_done) and ps.amoeba_done[i] else "")
            for i, s in enumerate(ps.amoeba_space) if s >= 0
        ) or "none"
        head = (f"player_{p} ({_colour(p)}): BP {ps.bp}, score {ps.score}"
                + (", Aggression used" if ps.aggression_used else ""))
        lines.append(head)
        lines += wrap_items("  genes:", gene_names, indent="    ")
        lines += textwrap.wrap(f"amoebas: {amoebas}", MAX_WIDTH, initial_indent="  ",
                               subsequent_indent="    ")
    return lines


def environment_card_text(state: GameState, config: PrimordialSoupConfig) -> str | None:
    """``"drift E, ozone 10"`` for the card on the compass; None before the first is turned."""
    deck = config.environment_deck
    if 0 <= state.environment_card < len(deck):
        drift, ozone = deck[state.environment_card]
        return f"drift {drift}, ozone {ozone}"
    return None


def to_text(state: GameState, config: PrimordialSoupConfig, pending: bool = True,
            moves: Sequence[str] | None = None) -> str:
    """The readable board of ``state``.

    Args:
        state: The game state.
        config: The rules config (board layout, deck, finish zone).
        pending: Include the ``Pending:`` line (the decision in words); ``False`` gives
            the board alone, which a console shows only when it changed.
        moves: The legal ways to move at a move decision (see :func:`describe_decision`).

    Returns:
        A multi-line string, every line at most :data:`MAX_WIDTH` characters.
    """
    n = state.num_players
    env = environment_card_text(state, config) or "none turned yet"
    dice = " ".join(str(d) for d in state.dice) or "-"
    lines = [
        f"Primordial Soup: round {state.round}/{config.max_rounds}, phase {state.phase}",
        f"Environment card: {env} | deck: {len(state.environment_deck)} cards left"
        f" | last dice: {dice}",
    ]
    if pending:
        lines.append(f"Pending: {describe_decision(state, moves)}")
    if state.phase == "game_over":
        winner = state.descending()[0]
        lines.append(f"Game over: player_{winner} wins (marker farthest along the ladder)")
    lines += [
        "",
        "Soup (north up; space: cubes "
        + "/".join(_colour(c) for c in range(n))
        + "; amoebas P<owner>#<number>, * = damage):",
    ]
    lines += _board_lines(state, config)
    supply = " ".join(f"{_colour(c)}{state.supply[c]}" for c in range(n))
    genes = [
        f"{g.name} x{state.gene_supply[i]}" for i, g in enumerate(GENES)
        if i < len(state.gene_supply) and state.gene_supply[i] > 0
    ] or ["none"]
    lines += [""]
    lines += _ladder_lines(state, config)
    lines += [""]
    lines += _player_lines(state)
    lines += [""]
    lines.append(f"Cube supply: {supply}")
    lines += wrap_items("Gene supply:", genes)
    out: list[str] = []
    for line in lines:  # wrap anything still too long (long pending descriptions)
        if len(line) > MAX_WIDTH:
            out += textwrap.wrap(line, MAX_WIDTH, subsequent_indent="  ")
        else:
            out.append(line)
    return "\n".join(out)
