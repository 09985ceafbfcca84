"""Primordial Soup positions by name: a rules state from a dict (or YAML) and back.

``build_position(rules, spec)`` returns a :class:`~primeval.envs.primordial_soup.state.GameState`
waiting for the decision the spec names, with everything the spec leaves out filled in as
the rules would have it: the cube supply (55 of each colour in all), the gene supply, the
environment deck, the amoebas' phase-1 turns and the procedure stack below the decision
(the players still to act in this phase, in the phase's order, and the phases still to come
in the round). It is checked with the rules' ``check_state``. ``position_to_dict(rules,
state)`` writes a state at one of these decisions back as a spec that rebuilds it exactly,
leaving out what equals the default. ``docs/positions.md`` has the full format; in short::

    round: 3
    decision: {kind: buy, player: 2}       # phase 3, player 2 to buy
    environment_card: 4                    # numbered 1..11 as in the config's deck
    players:                               # one entry per seat, in seat order
      - {bp: 6, score: 9, genes: {tentacle: 1}, amoebas: {1: 7, 3: {space: 12, damage: 1}}}
      - {bp: 2, score: 11, amoebas: {2: 0}}
      - {bp: 9, score: 8, genes: [speed, Struggle for Survival], amoebas: {1: 12}}
      - {bp: 4, score: 10}
    cubes: {7: {R: 5, G: 0}}               # space: cubes by colour letter

Keys (every one optional except ``decision``):

- ``round``: 1..``max_rounds`` (default 1). ``phase``: a check only, the decision's phase by
  name or number 1..6.
- ``decision``: ``kind`` and ``player`` (a seat: ``2`` or ``"player_2"``), plus by kind:

  ========== ======================== ===================================================
  kind       phase                    more keys
  ========== ======================== ===================================================
  move       1 movement_and_feeding   ``amoeba`` (1..7): how it moves; its turn has begun
  feed       1 movement_and_feeding   ``amoeba``; ``struggle_used`` (default false)
  defect     2 environment            ``remaining`` (default: its MP minus the ozone)
  buy        3 new_genes              none
  divide     4 cell_division          ``free_used`` (default false); the 10 BP are paid
  aggression 5 deaths                 none; the natural deaths are over
  ========== ======================== ===================================================

- ``environment_card``: the card on the compass (default 1). ``environment_deck``: the
  cards not yet turned, as many as the round leaves (one card is turned at setup and one in
  every phase 2); default: the highest-numbered cards other than the one on the compass.
- ``players``: one mapping per seat (default: all defaults): ``bp`` (default the start BP),
  ``score`` (ladder space, default seat + 1), ``genes`` (gene key or English name -> round
  it was acquired, 0 = before round 1; a list means round 0), ``amoebas`` (number 1..7 ->
  space, or ``{space, damage}``), ``done`` (the numbers whose phase-1 turn is over this round;
  default: in phase 1 the amoebas on the board of the players who already moved, ascending,
  and of the deciding player up to the pending amoeba; later, every amoeba on the board),
  ``aggression_used`` (default false).
- ``cubes``: space (0..18, as the board text numbers them) -> colour letter (R, G, B, Y:
  seat 0, 1, 2, 3) -> count; every count not given is the setup count (2), and
  ``position_to_dict`` writes every colour of each space that differs from the setup.
- ``dice``: the last dice rolled (faces 1..6, at most 2), which observations show.

Player seat ``p`` plays colour ``p``. The spec holds names and small numbers only, so it can
live in a test file or a bug report. Every refusal is a
:class:`~primeval.envs.core.position.PositionError` naming the entry (``players[1].genes``)
and what is allowed.
"""

from __future__ import annotations

from typing import Any

from primeval.envs.core.position import (
    PositionError,
    Spec,
    check_position,
    integer,
    lookup,
    plain_spec,
    seat,
    verified_dict,
)
from primeval.envs.core.values import short_repr
from primeval.envs.primordial_soup.config import PrimordialSoupConfig
from primeval.envs.primordial_soup.data import GENE_INDEX, GENES
from primeval.envs.primordial_soup.rules import PrimordialSoupRules
from primeval.envs.primordial_soup.rules.common import death_threshold, mutation_points
from primeval.envs.primordial_soup.rules.genes import SUCCESSORS
from primeval.envs.primordial_soup.state import PHASES, GameState, PlayerState
from primeval.envs.primordial_soup.view_text import COLOUR_LETTERS

__all__ = ["DECISIONS", "PositionError", "build_position", "position_to_dict"]

#: The decisions a position may wait for, with the phase each belongs to.
DECISIONS: dict[str, str] = {
    "move": "movement_and_feeding",
    "feed": "movement_and_feeding",
    "defect": "environment",
    "buy": "new_genes",
    "divide": "cell_division",
    "aggression": "deaths",
}
#: The round's phases 1..6 (``PHASES`` without setup and game over).
ROUND_PHASES = PHASES[1:7]
#: The per-phase steps that queue the rest of the round, in the order ``begin_round`` pushes
#: them (phase 6 at the bottom).
_LATER_PHASES = ("phase6", "phase5", "phase4", "phase3", "phase2")
_TOP_KEYS = ("round", "phase", "decision", "environment_card", "environment_deck", "players",
             "cubes", "dice")
_DECISION_KEYS = ("kind", "player", "amoeba", "remaining", "free_used", "struggle_used")
#: The keys each decision kind has besides ``kind`` and ``player``.
_DECISION_EXTRAS: dict[str, tuple[str, ...]] = {
    "move": ("amoeba",), "feed": ("amoeba", "struggle_used"), "defect": ("remaining",),
    "buy": (), "divide": ("free_used",), "aggression": (),
}
_PLAYER_KEYS = ("bp", "score", "genes", "amoebas", "done", "aggression_used")
#: Every name a gene may be written with: its key and its English name.
GENE_NAMES: dict[str, str] = {**{g.key: g.key for g in GENES}, **{g.name: g.key for g in GENES}}


def _rules(rules: PrimordialSoupRules | PrimordialSoupConfig) -> PrimordialSoupRules:
    return rules if isinstance(rules, PrimordialSoupRules) else PrimordialSoupRules(rules)


# Building ------------------------------------------------------------------------------------

def build_position(rules: PrimordialSoupRules | PrimordialSoupConfig,
                   spec: dict[str, Any]) -> GameState:
    """The rules state the position ``spec`` describes (the format is the module's docstring).

    Args:
        rules: The rules (or their config) the position is played by.
        spec: The position, names and small numbers only.

    Raises:
        PositionError: an unknown name, a number out of range, or a position the rules
            could not reach (the message names the entry and what is allowed).
    """
    rules = _rules(rules)
    spec = plain_spec(spec)
    c, n = rules.config, rules.num_players
    top = Spec(spec, "", _TOP_KEYS)
    decision = top.sub("decision", _DECISION_KEYS)
    kind = lookup(decision.require("kind"), {k: k for k in DECISIONS}, "decision kind",
                  decision.where("kind"))
    phase = DECISIONS[kind]
    for key in _DECISION_KEYS[2:]:
        if decision.has(key) and key not in _DECISION_EXTRAS[kind]:
            raise PositionError(f"{decision.where(key)}: a {short_repr(kind)} decision has no "
                                f"{short_repr(key)} "
                                f"(it has {['kind', 'player', *_DECISION_EXTRAS[kind]]})")
    if top.has("phase"):
        written = top.get("phase")
        names = {**{p: p for p in ROUND_PHASES}, **{str(i): p for i, p in
                                                      enumerate(ROUND_PHASES, 1)}}
        if lookup(str(written), names, "phase", "phase") != phase:
            raise PositionError(f"phase: {short_repr(written)}, but a {short_repr(kind)} decision is "
                                "taken in "
                                f"phase {ROUND_PHASES.index(phase) + 1} ({phase})")
    round_ = top.integer("round", 1, 1, c.max_rounds)
    player = seat(decision.require("player"), n, decision.where("player"))

    entries = top.sequence("players") or [{}] * n
    if len(entries) != n:
        raise PositionError(f"players: {len(entries)} entries, but this is a {n}-player game "
                            "(one entry per seat, in seat order)")
    players = [_player(rules, Spec(e, f"players[{p}]", _PLAYER_KEYS), p, round_)
               for p, e in enumerate(entries)]
    state = GameState(
        num_players=n, round=round_, phase=phase, players=[ps for ps, _ in players],
        cubes=_cubes(rules, top), supply=[], gene_supply=[], environment_card=-1,
        environment_deck=[], dice=_dice(top),
    )
    state.supply = [c.cubes_per_colour - sum(row[colour] for row in state.cubes)
                    for colour in range(n)]
    for colour, left in enumerate(state.supply):
        if left < 0:
            raise PositionError(f"cubes: {c.cubes_per_colour - left} {COLOUR_LETTERS[colour]} "
                                f"cubes on the board, the game has {c.cubes_per_colour}")
    state.gene_supply = _gene_supply(state)
    _environment(rules, top, state)

    amoeba = -1
    if kind in ("move", "feed"):
        number = _amoeba_number(decision.require("amoeba"), rules, decision.where("amoeba"))
        amoeba = number - 1
        if state.players[player].amoeba_space[amoeba] < 0:
            raise PositionError(f"decision: player {player}'s amoeba #{number} is not on the "
                                f"board (players[{player}].amoebas)")
    for p, (ps, done) in enumerate(players):
        ps.amoeba_done = (_default_done(state, phase, player, amoeba, p) if done is None
                          else [i in done for i in range(c.max_amoebas)])
    _check_phase(rules, state, kind, player, amoeba)
    state.stack = _stack(rules, state, kind, player, amoeba, decision)
    check_position(rules, state)
    return state


def _player(rules, spec: Spec, p: int, round_: int) -> tuple[PlayerState, set[int] | None]:
    """One seat's player state, and the amoeba indices written as ``done`` (None: default)."""
    c = rules.config
    genes: dict[str, int] = {}
    written = spec.get("genes", {})
    items = (written.items() if isinstance(written, dict)
             else [(g, 0) for g in spec.sequence("genes")])
    for name, acquired in items:
        where = spec.where("genes")
        key = lookup(name, GENE_NAMES, "gene", where)
        if key in genes:
            raise PositionError(f"{where}: {GENES[GENE_INDEX[key]].name} is written twice")
        genes[key] = integer(acquired, f"{where}.{name}", 0, round_)
    space = [-1] * c.max_amoebas
    damage = [0] * c.max_amoebas
    for number, entry in spec.mapping("amoebas").items():
        where = spec.where(f"amoebas.{number}")
        i = _amoeba_number(number, rules, spec.where("amoebas")) - 1
        if isinstance(entry, dict):
            entry = Spec(entry, where, ("space", "damage"))
            space[i] = _space(entry.require("space"), rules, entry.where("space"))
            damage[i] = entry.integer("damage", 0, 0)
        else:
            space[i] = _space(entry, rules, where)
    done = None
    if spec.has("done"):
        done = {_amoeba_number(x, rules, spec.where("done")) - 1 for x in spec.sequence("done")}
    ps = PlayerState(
        bp=spec.integer("bp", c.start_bp, 0), score=spec.integer("score", p + 1, 0),
        genes=dict(sorted(genes.items(), key=lambda kv: GENE_INDEX[kv[0]])),
        amoeba_space=space, amoeba_damage=damage, amoeba_done=[False] * c.max_amoebas,
        aggression_used=spec.boolean("aggression_used", False),
    )
    return ps, done


def _amoeba_number(value: Any, rules, where: str) -> int:
    top = rules.config.max_amoebas
    try:
        return integer(value, where, 1, top)
    except PositionError:
        raise PositionError(f"{where}: amoeba {short_repr(value)} does not exist (amoebas are "
                            "numbered "
                            f"1..{top})") from None


def _space(value: Any, rules, where: str) -> int:
    last = rules.board.num_spaces - 1
    try:
        return integer(value, where, 0, last)
    except PositionError:
        raise PositionError(f"{where}: space {short_repr(value)} is not on the board "
                            f"(spaces 0..{last}, "
                            "as the board text numbers them)") from None


def _cubes(rules, top: Spec) -> list[list[int]]:
    c, n = rules.config, rules.num_players
    letters = {COLOUR_LETTERS[colour]: colour for colour in range(n)}
    cubes = [[c.setup_cubes_per_space] * n for _ in range(rules.board.num_spaces)]
    for space, counts in top.mapping("cubes").items():
        s = _space(space, rules, "cubes")
        where = f"cubes.{space}"
        if not isinstance(counts, dict):
            raise PositionError(f"{where}: expected colour letter -> count "
                                f"({', '.join(letters)}), got {short_repr(counts)}")
        for letter, count in counts.items():
            colour = lookup(letter, letters, "colour", where)
            cubes[s][colour] = integer(count, f"{where}.{letter}", 0)
    return cubes


def _dice(top: Spec) -> tuple[int, ...]:
    faces = top.sequence("dice")
    if len(faces) > 2:
        raise PositionError(f"dice: at most 2 dice are rolled at once, got {faces}")
    return tuple(integer(f, "dice", 1, 6) for f in faces)


def _gene_supply(state: GameState) -> list[int]:
    n = state.num_players
    supply = []
    for g in GENES:
        owners = [p for p, ps in enumerate(state.players) if g.key in ps.genes]
        left = g.copies(n) - len(owners)
        if left < 0:
            raise PositionError(f"genes: {g.name} is held by players {owners}, but a {n}-player "
                                f"game has {g.copies(n)} such card(s)")
        supply.append(left)
    for p, ps in enumerate(state.players):
        for basic, higher in SUCCESSORS.items():
            held = [GENES[GENE_INDEX[h]].name for h in higher if h in ps.genes]
            if basic in ps.genes and held:
                raise PositionError(f"players[{p}].genes: {held[0]} replaced "
                                    f"{GENES[GENE_INDEX[basic]].name}; a player never holds both")
    return supply


def _turned(round_: int, phase: str) -> int:
    """Environment cards turned so far: one at setup and one in each phase 2."""
    return round_ + (0 if phase == "movement_and_feeding" else 1)


def _default_deck(rules, round_: int, phase: str, card: int) -> list[int]:
    total = len(rules.config.environment_deck)
    others = [i for i in range(total) if i != card]
    left = total - _turned(round_, phase)
    return others[len(others) - left:] if left else []


def _environment(rules, top: Spec, state: GameState) -> None:
    deck = rules.config.environment_deck
    total = len(deck)
    card = top.integer("environment_card", 1, 1, total) - 1
    state.environment_card = card
    if not top.has("environment_deck"):
        state.environment_deck = _default_deck(rules, state.round, state.phase, card)
        return
    numbers = [integer(x, "environment_deck", 1, total) for x in
               top.sequence("environment_deck")]
    if len(set(numbers)) != len(numbers) or card + 1 in numbers:
        raise PositionError(f"environment_deck: {numbers} repeats a card or holds the one on "
                            f"the compass ({card + 1}); each card is turned once")
    left = total - _turned(state.round, state.phase)
    if len(numbers) != left:
        raise PositionError(
            f"environment_deck: {len(numbers)} cards, but in round {state.round}, phase "
            f"{state.phase}, {total - left} of the {total} cards have been turned (one at setup "
            f"and one in every phase 2), so {left} are left")
    state.environment_deck = sorted(x - 1 for x in numbers)


def _default_done(state: GameState, phase: str, player: int, amoeba: int,
                  p: int) -> list[bool]:
    """Which of seat ``p``'s amoebas have had their phase-1 turn this round, as the rules
    leave it when nothing unusual happened: in phase 1 every amoeba on the board of the
    players before ``player`` in ascending order and ``player``'s up to the pending one;
    later every amoeba on the board."""
    on_board = [sp >= 0 for sp in state.players[p].amoeba_space]
    if phase != "movement_and_feeding":
        return on_board
    order = state.ascending()
    if order.index(p) < order.index(player):
        return on_board
    if p == player:
        return [b and i <= amoeba for i, b in enumerate(on_board)]
    return [False] * len(on_board)


def _check_phase(rules, state: GameState, kind: str, player: int, amoeba: int) -> None:
    """What the rules leave true at this point of the round, beyond ``check_state``."""
    c = rules.config
    phase = state.phase
    desc = state.descending()
    for p, ps in enumerate(state.players):
        if ps.score >= c.finish_zone_start:
            raise PositionError(f"players[{p}].score: {ps.score} is in the finish zone (from "
                                f"{c.finish_zone_start}), so the game ended last round")
        latest = state.round
        if (ROUND_PHASES.index(phase) < ROUND_PHASES.index("new_genes")
                or (phase == "new_genes" and desc.index(p) > desc.index(player))):
            latest = state.round - 1  # this round's genes are bought in phase 3
        for key, acquired in ps.genes.items():
            if acquired > latest:
                raise PositionError(f"players[{p}].genes.{key}: acquired in round {acquired}, "
                                    f"but player {p} has not bought genes in round "
                                    f"{state.round} yet")
        used_ok = phase == "deaths" and desc.index(p) < desc.index(player)
        if ps.aggression_used and not used_ok:
            raise PositionError(f"players[{p}].aggression_used: player {p} has not had its "
                                f"Aggression turn this round (phase 5, descending order)")
    if phase == "movement_and_feeding":
        ps = state.players[player]
        if not ps.amoeba_done[amoeba]:
            raise PositionError(f"players[{player}].done: amoeba #{amoeba + 1} is taking its "
                                "phase-1 turn, so it is done")
        order = state.ascending()
        for p in order[: order.index(player)]:
            for i, sp in enumerate(state.players[p].amoeba_space):
                if sp >= 0 and not state.players[p].amoeba_done[i]:
                    raise PositionError(
                        f"players[{p}].done: player {p} has had its phase-1 turn (ascending "
                        f"order), so its amoeba #{i + 1} on the board is done")
    if phase == "deaths":
        for p, ps in enumerate(state.players):
            threshold = death_threshold(c, ps)
            for i in ps.amoebas_on_board():
                if ps.amoeba_damage[i] >= threshold:
                    raise PositionError(
                        f"players[{p}].amoebas.{i + 1}: damage {ps.amoeba_damage[i]} kills it in "
                        f"phase 5's natural deaths, which come before Aggression")


def _stack(rules, state: GameState, kind: str, player: int, amoeba: int,
           decision: Spec) -> list[dict[str, Any]]:
    """The procedure stack at this decision, as the round's steps leave it."""
    phase = state.phase
    number = ROUND_PHASES.index(phase) + 1
    stack: list[dict[str, Any]] = [{"kind": k} for k in _LATER_PHASES[: 6 - number]]
    ascending = phase == "movement_and_feeding"
    order = state.ascending() if ascending else state.descending()
    later = list(reversed(order[order.index(player) + 1:]))
    if phase == "movement_and_feeding":
        stack += [{"kind": "amoeba_turns", "player": q} for q in later]
        stack.append({"kind": "amoeba_turns", "player": player})
        stack.append({"kind": "feed", "player": player, "amoeba": amoeba,
                      "struggle_used": decision.boolean("struggle_used", False)
                      if kind == "feed" else False})
        if kind == "move":
            stack.append({"kind": "move", "player": player, "amoeba": amoeba})
    elif phase == "environment":
        stack += [{"kind": "defect", "player": q, "remaining": _due(rules, state, q)}
                  for q in later if _due(rules, state, q) > 0]
        due = _due(rules, state, player)
        if due <= 0 and not decision.has("remaining"):
            mp = mutation_points(state.players[player])
            raise PositionError(f"decision: player {player} owes no gene defect (mutation "
                                f"points {mp} <= ozone {mp - due})")
        stack.append({"kind": "defect", "player": player,
                      "remaining": decision.integer("remaining", due, 1)})
    elif phase == "new_genes":
        stack += [{"kind": "buy", "player": q} for q in later]
        stack.append({"kind": "buy", "player": player})
    elif phase == "cell_division":
        stack += [{"kind": "division_income", "player": q} for q in later]
        stack.append({"kind": "divide", "player": player,
                      "free_used": decision.boolean("free_used", False)})
    else:  # deaths: the natural deaths are over, Aggression in descending order
        stack += [{"kind": "aggression", "player": q} for q in later]
        stack.append({"kind": "aggression", "player": player})
    return stack


def _due(rules, state: GameState, p: int) -> int:
    """The gene defect seat ``p`` owes this phase 2: its MP above the ozone value."""
    ozone = rules.config.environment_deck[state.environment_card][1]
    return mutation_points(state.players[p]) - ozone


# Writing -------------------------------------------------------------------------------------

def position_to_dict(rules: PrimordialSoupRules | PrimordialSoupConfig,
                     state: GameState) -> dict[str, Any]:
    """The position of ``state`` as a spec of names that :func:`build_position` turns back
    into the very same state; entries equal to their default are left out.

    Raises:
        PositionError: the state waits for a decision the format does not hold (an interrupt
            such as Escape or Tentacle, a direction, the setup) or holds something no
            position at that decision holds.
    """
    rules = _rules(rules)
    c = rules.config
    frame = state.pending
    if frame is None or frame.get("kind") not in DECISIONS or state.phase not in ROUND_PHASES:
        pending = frame.get("kind") if frame else "nothing"
        raise PositionError(f"this state has no position form: it waits for {short_repr(pending)} "
                            f"(phase {state.phase}); positions wait for one of "
                            f"{sorted(DECISIONS)}")
    kind, player = frame["kind"], frame["player"]
    amoeba = frame.get("amoeba", -1)
    decision: dict[str, Any] = {"kind": kind, "player": player}
    if kind in ("move", "feed"):
        decision["amoeba"] = amoeba + 1
    if kind == "feed" and frame["struggle_used"]:
        decision["struggle_used"] = True
    if kind == "defect" and frame["remaining"] != _due(rules, state, player):
        decision["remaining"] = frame["remaining"]
    if kind == "divide" and frame["free_used"]:
        decision["free_used"] = True
    spec: dict[str, Any] = {"round": state.round, "phase": state.phase, "decision": decision,
                            "environment_card": state.environment_card + 1}
    if state.environment_deck != _default_deck(rules, state.round, state.phase,
                                               state.environment_card):
        spec["environment_deck"] = [i + 1 for i in state.environment_deck]
    players = []
    for p, ps in enumerate(state.players):
        entry: dict[str, Any] = {"bp": ps.bp, "score": ps.score}
        if ps.genes:
            entry["genes"] = dict(ps.genes)
        amoebas = {}
        for i, (sp, dp) in enumerate(zip(ps.amoeba_space, ps.amoeba_damage, strict=True)):
            if sp >= 0:
                amoebas[i + 1] = {"space": sp, "damage": dp} if dp else sp
        if amoebas:
            entry["amoebas"] = amoebas
        if ps.amoeba_done != _default_done(state, state.phase, player, amoeba, p):
            entry["done"] = [i + 1 for i, d in enumerate(ps.amoeba_done) if d]
        if ps.aggression_used:
            entry["aggression_used"] = True
        players.append(entry)
    spec["players"] = players
    cubes = {}
    for s, row in enumerate(state.cubes):
        if any(count != c.setup_cubes_per_space for count in row):
            cubes[s] = {COLOUR_LETTERS[colour]: count for colour, count in enumerate(row)}
    if cubes:
        spec["cubes"] = cubes
    if state.dice:
        spec["dice"] = list(state.dice)
    return verified_dict(rules, state, spec, build_position)
