"""Primordial Soup positions by name: a rules state from a dict (or YAML) and back.

``build_position(rules, spec)`` returns a :class:`~primeval.envs.primordial_soup.state.GameState`
waiting for the decision the spec names, with everything the spec leaves out filled in as
the rules would have it: the cube supply (55 of each colour in all), the gene supply, the
environment deck, the amoebas' phase-1 turns and the procedure stack below the decision
(the players still to act in this phase, in the phase's order, and the phases still to come
in the round). It is checked with the rules' ``check_state``. ``position_to_dict(rules,
state)`` writes a state back as a spec that rebuilds it exactly, leaving out what equals the
default. Every decision the rules pause at has a position (:data:`ALL_DECISIONS`): besides
the phases' own decisions below, the setup's (``start_space``, ``place_start``) and every
interrupt (``direction``, ``move_again``, ``tentacle``, ``cling``, ``parasite_host``,
``defend``, ``retry``), whose ``decision`` names the frame's fields and whose ``waiting``
lists the frames under it (a relocation or an attack under way, the amoeba's feeding), bottom
first. ``docs/positions.md`` has the full format; in short::

    round: 3
    decision: {kind: buy, player: 2}       # phase 3, player 2 to buy
    environment_card: 4                    # numbered 1..11 as in the config's deck
    players:                               # one entry per seat, in seat order
      - {bp: 6, score: 9, genes: {tentacle: 1}, amoebas: {1: 7, 3: {space: 12, damage: 1}}}
      - {bp: 2, score: 11, amoebas: {2: 0}}
      - {bp: 9, score: 8, genes: [speed, Struggle for Survival], amoebas: {1: 12}}
      - {bp: 4, score: 10}
    cubes: {7: {R: 5, G: 0}}               # space: cubes by colour letter

Keys (every one optional except ``decision``; ``waiting`` and the fields of the other
decisions are in ``docs/positions.md``):

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
    verified_dict,
)
from primeval.envs.core.values import short_repr
from primeval.envs.primordial_soup.config import PrimordialSoupConfig
from primeval.envs.primordial_soup.data import GENE_INDEX, GENES
from primeval.envs.primordial_soup.position_frames import (
    amoeba_number,
    board_space,
    due,
    frame_kind,
    read_named_frame,
    starts_left,
    write_named_frame,
)
from primeval.envs.primordial_soup.rules import PrimordialSoupRules
from primeval.envs.primordial_soup.rules.checks_stack import LATER_PHASES, QUEUE_KINDS
from primeval.envs.primordial_soup.rules.common import death_threshold
from primeval.envs.primordial_soup.rules.genes import SUCCESSORS
from primeval.envs.primordial_soup.rules.registry import REGISTRY
from primeval.envs.primordial_soup.state import PHASES, GameState, PlayerState
from primeval.envs.primordial_soup.view_text import COLOUR_LETTERS

__all__ = ["ALL_DECISIONS", "DECISIONS", "PositionError", "build_position", "position_to_dict"]

#: The decisions of a phase's turn (the ones a short spec names), with the phase of each.
DECISIONS: dict[str, str] = {
    "move": "movement_and_feeding",
    "feed": "movement_and_feeding",
    "defect": "environment",
    "buy": "new_genes",
    "divide": "cell_division",
    "aggression": "deaths",
}
#: Every decision the rules can pause at: a position may wait for each of them.
ALL_DECISIONS: tuple[str, ...] = tuple(REGISTRY.decisions)
#: The round's phases 1..6 (``PHASES`` without setup and game over).
ROUND_PHASES = PHASES[1:7]
#: The per-phase steps that queue the rest of the round, in the order ``begin_round`` pushes
#: them (phase 6 at the bottom).
_LATER_PHASES = ("phase6", "phase5", "phase4", "phase3", "phase2")
_TOP_KEYS = ("round", "phase", "decision", "waiting", "environment_card", "environment_deck",
             "players", "cubes", "dice")
#: Frames a spec may write in ``waiting`` (the steps of the round and of the setup follow
#: from the rest of the spec).
_WAITING_KINDS = (*ALL_DECISIONS, "relocate", "attack")
_PLAYER_KEYS = ("bp", "score", "genes", "amoebas", "done", "aggression_used")
#: Every name a gene may be written with: its key and its English name.
GENE_NAMES: dict[str, str] = {**{g.key: g.key for g in GENES}, **{g.name: g.key for g in GENES}}


def _rules(rules: PrimordialSoupRules | PrimordialSoupConfig) -> PrimordialSoupRules:
    return rules if isinstance(rules, PrimordialSoupRules) else PrimordialSoupRules(rules)


def _phase_of(kind: str, decision: Any, waiting: list[Any]) -> str:
    """The phase a decision (with the frames waiting under it) is taken in, from the frame
    at the bottom of the turn: the setup's decisions, a phase's own turn, or an attack's
    kind (Struggle in phase 1, Aggression in phase 5); every other interrupt belongs to
    phase 1's amoeba turns."""
    if kind in ("start_space", "place_start"):
        return "setup"
    bottom = waiting[0] if waiting else decision
    bottom_kind = bottom.get("kind") if isinstance(bottom, dict) else None
    if not isinstance(bottom_kind, str):
        return "movement_and_feeding"  # reading the frame names what is wrong with it
    bottom_kind = bottom_kind.casefold()
    if bottom_kind in DECISIONS:
        return DECISIONS[bottom_kind]
    attack_kind = bottom.get("attack_kind")
    if (bottom_kind in ("attack", "retry") and isinstance(attack_kind, str)
            and attack_kind.casefold() == "aggression"):
        return "deaths"
    return "movement_and_feeding"


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
    raw_decision = top.require("decision")
    kind = frame_kind(rules, raw_decision, "decision", ALL_DECISIONS, "decision kind")
    written_waiting = top.has("waiting")
    raw_waiting = top.sequence("waiting")
    phase = _phase_of(kind, raw_decision, raw_waiting)
    setup = phase == "setup"
    if top.has("phase"):
        written = top.get("phase")
        names = {**{p: p for p in PHASES[:7]}, **{str(i): p for i, p in enumerate(PHASES[:7])}}
        if lookup(str(written), names, "phase", "phase") != phase:
            raise PositionError(f"phase: {short_repr(written)}, but a {short_repr(kind)} decision "
                                "is taken in "
                                f"phase {PHASES.index(phase)} ({phase})" + (
                                    "" if kind in DECISIONS or setup else
                                    " (with the frames waiting under it)"))
    if setup and top.has("round") and top.get("round") != 0:
        raise PositionError(f"round: {short_repr(top.get('round'))}, but a {short_repr(kind)} "
                            "decision is taken in the setup, round 0")
    round_ = (top.integer("round", 0, 0, 0) if setup
              else top.integer("round", 1, 1, c.max_rounds))
    no_start = setup and kind == "start_space"

    entries = top.sequence("players") or [{}] * n
    if len(entries) != n:
        raise PositionError(f"players: {len(entries)} entries, but this is a {n}-player game "
                            "(one entry per seat, in seat order)")
    players = [_player(rules, Spec(e, f"players[{p}]", _PLAYER_KEYS), p, round_,
                       0 if no_start else p + 1)
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
            most = sorted(range(len(state.cubes)), key=lambda sp: -state.cubes[sp][colour])[:3]
            raise PositionError(
                f"cubes: {c.cubes_per_colour - left} {COLOUR_LETTERS[colour]} cubes (player "
                f"{colour}'s colour) on the board, but the game has {c.cubes_per_colour} of each "
                f"colour (primordial_soup.md \"Components\"); most on spaces "
                + ", ".join(f"{sp} ({state.cubes[sp][colour]})" for sp in most)
                + f"; a space not written in cubes holds the setup's "
                f"{c.setup_cubes_per_space} of each colour")
    state.gene_supply = _gene_supply(state)
    _environment(rules, top, state)

    context = {"rules": rules, "state": state, "below": []}
    frames: list[dict[str, Any]] = []
    for i, raw in enumerate(raw_waiting):
        frames.append(read_named_frame(rules, raw, f"waiting[{i}]", _WAITING_KINDS,
                                       "frame kind", {**context, "below": list(frames)}))
    decision = read_named_frame(rules, raw_decision, "decision", ALL_DECISIONS,
                                "decision kind", {**context, "below": list(frames)})
    if not written_waiting:
        frames = _default_waiting(state, decision)
    elif kind == "place_start" and frames:
        raise PositionError("waiting: the start amoebas still to place follow from the ones "
                            "on the board; write no waiting frames")
    turn = [*frames, decision]
    current = turn[0]["player"] if not setup else decision["player"]
    amoeba = turn[0].get("amoeba", -1) if phase == "movement_and_feeding" else -1
    if phase == "movement_and_feeding" and kind in ("move", "feed") and not frames[:-1] \
            and state.players[current].amoeba_space[amoeba] < 0:
        raise PositionError(f"decision: player {current}'s amoeba #{amoeba + 1} is not on the "
                            f"board (players[{current}].amoebas)")
    attacking = phase == "deaths" and turn[0]["kind"] in ("attack", "retry")
    for p, (ps, (done, used)) in enumerate(players):
        ps.amoeba_done = (_default_done(state, phase, current, amoeba, p) if done is None
                          else [i in done for i in range(c.max_amoebas)])
        ps.aggression_used = (attacking and p == current) if used is None else used
    _check_phase(rules, state, current, amoeba, attacking)
    state.stack = _stack(rules, state, current, turn)
    check_position(rules, state)
    return state


def _default_waiting(state: GameState, decision: dict[str, Any]) -> list[dict[str, Any]]:
    """The frames under a decision when the spec writes none: a move's amoeba feeds after
    it (and after a first active move's direction, Speed offers the second); in the setup the other players without a start space choose one later (the lowest
    seat first); nothing under any other decision."""
    kind, player = decision["kind"], decision["player"]
    own_move = kind == "move" or (kind in ("direction", "move_again")
                                  and decision["mode"] == "turn")
    if own_move:  # the amoeba's own phase-1 move: it feeds after
        feed = {"kind": "feed", "player": player, "amoeba": decision["amoeba"],
                "struggle_used": False}
        ps = state.players[player]
        if kind == "direction" and decision["step"] == 1 and (ps.has("speed")
                                                              or ps.has("persistence")):
            return [feed, {"kind": "move_again", "player": player, "amoeba": decision["amoeba"],
                           "mode": "turn"}]  # Speed's second move is offered after
        return [feed]
    if kind == "start_space":
        later = [p for p, ps in enumerate(state.players) if ps.score == 0 and p != player]
        return [{"kind": "start_space", "player": p} for p in reversed(later)]
    return []


def _player(rules, spec: Spec, p: int, round_: int,
            score: int) -> tuple[PlayerState, tuple[set[int] | None, bool | None]]:
    """One seat's player state (``score``: the default ladder space), the amoeba indices
    written as ``done`` and the ``aggression_used`` written (None: the default)."""
    c = rules.config
    genes: dict[str, int] = {}
    written = spec.get("genes", {})
    items = (written.items() if isinstance(written, dict)
             else [(g, 0) for g in spec.sequence("genes")])
    for name, acquired in items:
        where = spec.where("genes")
        key = lookup(name, GENE_NAMES, "gene", where)
        if key in genes:
            raise PositionError(f"{where}: player {p}'s {GENES[GENE_INDEX[key]].name} is written "
                                "twice (by its key and its English name?); a player holds "
                                "a gene once")
        genes[key] = integer(acquired, f"{where}.{name}", 0, round_)
    space = [-1] * c.max_amoebas
    damage = [0] * c.max_amoebas
    for number, entry in spec.mapping("amoebas").items():
        where = spec.where(f"amoebas.{number}")
        i = amoeba_number(number, rules, spec.where("amoebas")) - 1
        if isinstance(entry, dict):
            entry = Spec(entry, where, ("space", "damage"))
            space[i] = board_space(entry.require("space"), rules, entry.where("space"))
            damage[i] = entry.integer("damage", 0, 0)
        else:
            space[i] = board_space(entry, rules, where)
    done = None
    if spec.has("done"):
        done = {amoeba_number(x, rules, spec.where("done")) - 1 for x in spec.sequence("done")}
    used = spec.boolean("aggression_used", False) if spec.has("aggression_used") else None
    ps = PlayerState(
        bp=spec.integer("bp", c.start_bp, 0), score=spec.integer("score", score, 0),
        genes=dict(sorted(genes.items(), key=lambda kv: GENE_INDEX[kv[0]])),
        amoeba_space=space, amoeba_damage=damage, amoeba_done=[False] * c.max_amoebas,
    )
    return ps, (done, used)


def _cubes(rules, top: Spec) -> list[list[int]]:
    c, n = rules.config, rules.num_players
    letters = {COLOUR_LETTERS[colour]: colour for colour in range(n)}
    cubes = [[c.setup_cubes_per_space] * n for _ in range(rules.board.num_spaces)]
    for space, counts in top.mapping("cubes").items():
        s = board_space(space, rules, "cubes")
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
            raise PositionError(f"players[{owners[-1]}].genes: {g.name} is held by players "
                                f"{owners}, but a {n}-player game has {g.copies(n)} such "
                                "card(s), bought from one supply (primordial_soup.md "
                                "\"Genes\")")
        supply.append(left)
    for p, ps in enumerate(state.players):
        for basic, higher in SUCCESSORS.items():
            held = [GENES[GENE_INDEX[h]].name for h in higher if h in ps.genes]
            if basic in ps.genes and held:
                raise PositionError(f"players[{p}].genes: player {p} holds {held[0]} and "
                                    f"{GENES[GENE_INDEX[basic]].name}, but {held[0]} replaced "
                                    f"{GENES[GENE_INDEX[basic]].name} when it was bought; a "
                                    "player never holds both (primordial_soup.md \"Buying "
                                    "advanced genes\")")
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
    if phase == "setup":
        return [False] * len(on_board)
    if phase != "movement_and_feeding":
        return on_board
    order = state.ascending()
    if order.index(p) < order.index(player):
        return on_board
    if p == player:
        return [b and i <= amoeba for i, b in enumerate(on_board)]
    return [False] * len(on_board)


def _check_phase(rules, state: GameState, current: int, amoeba: int,
                 attacking: bool) -> None:
    """What the rules leave true at this point of the round, beyond ``check_state``
    (``current``: the seat whose turn of the phase is under way)."""
    c = rules.config
    phase = state.phase
    if phase == "setup":
        return
    desc = state.descending()
    on_space: dict[int, int] = {}
    for p, ps in enumerate(state.players):
        if ps.score in on_space:
            raise PositionError(f"players[{p}].score: player {on_space[ps.score]}'s and player "
                                f"{p}'s markers are both on ladder space {ps.score}, but two "
                                "score markers never share a space (primordial_soup.md "
                                "\"Leapfrog\"); the default score is seat + 1")
        on_space[ps.score] = p
        if ps.score < 1:
            raise PositionError(f"players[{p}].score: player {p}'s marker is on space "
                                f"{ps.score}, off the ladder; the start spaces are 1.."
                                f"{state.num_players} (primordial_soup.md \"Start positions\")")
    for p, ps in enumerate(state.players):
        if ps.score >= c.finish_zone_start:
            raise PositionError(f"players[{p}].score: player {p}'s marker on {ps.score} is in "
                                f"the finish zone (from {c.finish_zone_start}), so the game "
                                "ended after last round's phase 6 (primordial_soup.md \"End of "
                                "the game\")")
        latest = state.round
        if (ROUND_PHASES.index(phase) < ROUND_PHASES.index("new_genes")
                or (phase == "new_genes" and desc.index(p) > desc.index(current))):
            latest = state.round - 1  # this round's genes are bought in phase 3
        for key, acquired in ps.genes.items():
            if acquired > latest:
                raise PositionError(f"players[{p}].genes.{key}: acquired in round {acquired}, "
                                    f"but player {p} has not bought genes in round "
                                    f"{state.round} yet")
        used_ok = phase == "deaths" and (desc.index(p) < desc.index(current)
                                         or (p == current and attacking))
        if ps.aggression_used and not used_ok:
            raise PositionError(f"players[{p}].aggression_used: player {p} has not had its "
                                f"Aggression turn this round (phase 5, descending order)")
        if phase == "deaths" and p == current and attacking and not ps.aggression_used:
            raise PositionError(f"players[{p}].aggression_used: player {p} is attacking with "
                                "Aggression, which marks it used this round")
    if phase == "movement_and_feeding":
        ps = state.players[current]
        if 0 <= amoeba < len(ps.amoeba_done) and not ps.amoeba_done[amoeba]:
            raise PositionError(f"players[{current}].done: amoeba #{amoeba + 1} is taking its "
                                "phase-1 turn, so it is done")
        order = state.ascending()
        for p in order[: order.index(current)]:
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


def _stack(rules, state: GameState, current: int,
           turn: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The procedure stack: the steps of the round (the phases still to come, the players
    still to act in this phase in its order) under the frames of the turn under way."""
    phase = state.phase
    if phase == "setup":
        return _setup_stack(rules, state, turn)
    number = ROUND_PHASES.index(phase) + 1
    stack: list[dict[str, Any]] = [{"kind": k} for k in _LATER_PHASES[: 6 - number]]
    order = state.ascending() if phase == "movement_and_feeding" else state.descending()
    later = list(reversed(order[order.index(current) + 1:]))
    if phase == "movement_and_feeding":
        stack += [{"kind": "amoeba_turns", "player": q} for q in later]
        stack.append({"kind": "amoeba_turns", "player": current})
    elif phase == "environment":
        stack += [{"kind": "defect", "player": q, "remaining": due(rules, state, q)}
                  for q in later if due(rules, state, q) > 0]
    elif phase == "new_genes":
        stack += [{"kind": "buy", "player": q} for q in later]
    elif phase == "cell_division":
        stack += [{"kind": "division_income", "player": q} for q in later]
    else:  # deaths: the natural deaths are over, Aggression in descending order
        stack += [{"kind": "aggression", "player": q} for q in later]
    return stack + turn


def _setup_stack(rules, state: GameState, turn: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The setup: the start spaces chosen (in the rolled order, as ``waiting`` writes it)
    above the placing of the start amoebas; then the start amoebas, first ones ascending
    with the start damage, second ones descending, as many left as are not on the board."""
    if turn[-1]["kind"] == "start_space":
        return [{"kind": "setup_amoebas"}, *turn]
    n = rules.num_players
    if sorted(ps.score for ps in state.players) != list(range(1, n + 1)):
        raise PositionError(f"players: the start spaces are 1..{n}, one per player, before the "
                            f"start amoebas are placed (scores "
                            f"{[ps.score for ps in state.players]})")
    left = starts_left(rules, state)
    placed = sum(len(ps.amoebas_on_board()) for ps in state.players)
    if not left or left[-1] != turn[-1]:
        expected = (f"player {left[-1]['player']} places a start amoeba with damage "
                    f"{left[-1]['damage']}" if left else "every start amoeba is placed")
        raise PositionError(f"decision: {placed} start amoebas are on the board, so {expected} "
                            "(first ones ascending with the start damage, then second ones "
                            "descending)")
    return [{"kind": "begin_round"}, *left]


# Writing -------------------------------------------------------------------------------------

def position_to_dict(rules: PrimordialSoupRules | PrimordialSoupConfig,
                     state: GameState) -> dict[str, Any]:
    """The position of ``state`` as a spec of names that :func:`build_position` turns back
    into the very same state; entries equal to their default are left out.

    Every decision the rules pause at has a position form: a phase's own decision, the
    setup's, and every interrupt (the frames under it are written in ``waiting``).

    Raises:
        PositionError: the game is over (no decision waits), or the state holds something
            no position at that decision holds.
    """
    rules = _rules(rules)
    c = rules.config
    if not state.stack or state.phase not in PHASES[:7]:
        raise PositionError(f"this state has no position form: no decision waits "
                            f"(phase {state.phase}); positions wait for one of "
                            f"{sorted(ALL_DECISIONS)}")
    turn = _turn_frames(state)
    top = turn[-1]
    kind = top["kind"]
    if kind not in ALL_DECISIONS:
        raise PositionError(f"this state has no position form: it waits for the step "
                            f"{short_repr(kind)}, not a decision")
    context: dict[str, Any] = {"rules": rules, "state": state}
    waiting = [write_named_frame(rules, f, {**context, "below": turn[:i]})
               for i, f in enumerate(turn[:-1])]
    decision = write_named_frame(rules, top, {**context, "below": turn[:-1]})
    current = turn[0]["player"] if state.phase != "setup" else top["player"]
    amoeba = turn[0].get("amoeba", -1) if state.phase == "movement_and_feeding" else -1
    attacking = state.phase == "deaths" and turn[0]["kind"] in ("attack", "retry")
    spec: dict[str, Any] = {"round": state.round, "phase": state.phase, "decision": decision}
    if (state.phase != "setup" or kind == "start_space") and \
            turn[:-1] != _default_waiting(state, top):
        spec["waiting"] = waiting
    spec["environment_card"] = state.environment_card + 1
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
        if ps.amoeba_done != _default_done(state, state.phase, current, amoeba, p):
            entry["done"] = [i + 1 for i, d in enumerate(ps.amoeba_done) if d]
        if ps.aggression_used != (attacking and p == current):
            entry["aggression_used"] = ps.aggression_used
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


def _turn_frames(state: GameState) -> list[dict[str, Any]]:
    """The frames of the turn under way: above the round's steps (the phases to come and the
    players' turns queued in this phase), or the decision alone when it is a queued turn
    itself (a defect, a purchase, a division, Aggression, a start amoeba)."""
    stack = state.stack
    if state.phase == "setup":
        return stack[1:] if stack[0]["kind"] == "setup_amoebas" else stack[-1:]
    rest = stack[len(LATER_PHASES[state.phase]):]
    queued = 0
    while queued < len(rest) and rest[queued]["kind"] in QUEUE_KINDS[state.phase]:
        queued += 1
    return rest[queued:] or rest[-1:]
