"""What every Primordial Soup position the rules can reach satisfies: :func:`check_state`,
which ``PrimordialSoupRules.check_state`` runs (and so ``set_state`` on every loaded state,
and the random games and the fuzzer after every step).

Each check raises ``ValueError`` naming the field and the rule (primordial_soup.md) it
breaks. The checks are sound: a position the rules can reach passes them all. Here: the
state's JSON form, the fields' types and ranges, the cubes, genes, players and environment;
the procedure stack is checked in :mod:`.checks_stack`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from primeval.envs.core.validate import (
    FieldTest,
    check_frame_list,
    check_int,
    check_ints,
    check_state_dict,
    fail,
    int_in,
    is_bool,
    is_int,
    need,
    one_of,
    per_rules,
    short,
)
from primeval.envs.primordial_soup.actions import MEALS
from primeval.envs.primordial_soup.data import (
    ADVANCE_FOR_AMOEBAS,
    ADVANCE_FOR_GENES,
    DIRECTIONS,
    GENE_INDEX,
    GENES,
)
from primeval.envs.primordial_soup.rules.checks_stack import check_stack
from primeval.envs.primordial_soup.rules.genes import SUCCESSORS
from primeval.envs.primordial_soup.state import PHASES, GameState, PlayerState


def check_dict(data: Any) -> None:
    """A state's JSON form (``GameState.to_dict()``) has the fields a state is built from:
    checked before it is built, so that the error names the field."""
    check_state_dict(data, GameState)
    if not isinstance(data["players"], list):
        fail(f"players: expected a list, got "
             f"{short(data['players'])}")
    player_fields = set(PlayerState.__dataclass_fields__)
    for p, ps in enumerate(data["players"]):
        if not (isinstance(ps, dict) and set(ps) == player_fields):
            fail(f"players[{p}]: expected a "
                 f"dict with the fields {sorted(player_fields)}, got {short(ps)}")
        for name in ("genes",):
            if not isinstance(ps[name], dict):
                fail(f"players[{p}].{name}: expected a dict, got "
                     f"{short(ps[name])}")
        for name in ("amoeba_space", "amoeba_damage", "amoeba_done"):
            if not isinstance(ps[name], list):
                fail(f"players[{p}].{name}: expected a list, got "
                     f"{short(ps[name])}")
    for name in ("cubes", "supply", "gene_supply", "environment_deck", "dice"):
        if not isinstance(data[name], list):
            fail(f"{name}: expected a list, got "
                 f"{short(data[name])}")
    need(all(isinstance(row, list) for row in data["cubes"]), "cubes: expected a list of "
         "lists (a row of colours per space)")
    check_frame_list(data)


def check_state(rules, state: GameState) -> None:
    """Raise ``ValueError`` naming the first field of ``state`` that breaks a rule."""
    _check_fields(rules, state)
    _check_components(rules, state)
    _check_players(rules, state)
    _check_environment(rules, state)
    check_stack(rules, state)
    check_real_choice(rules, state)


def check_real_choice(rules, state) -> None:
    """The pending decision offers a real choice: a decision whose only legal action is
    ``pass`` is resolved without asking (``FrameRules.advance``), and no decision is left
    without a legal action."""
    if not state.stack:
        return
    try:
        mask = rules.legal_mask(state)
    except Exception as exc:  # noqa: BLE001  (what the frame names is not there)
        raise ValueError(f"stack: the pending {state.stack[-1]['kind']} decision cannot be "
                         f"worked out ({type(exc).__name__}: {exc})") from None
    count = int(np.count_nonzero(mask))
    need(count > 0, f"stack: the pending {state.stack[-1]['kind']} decision has no legal "
         "action")
    need(not (count == 1 and mask[rules.pass_action]), f"stack: the pending "
         f"{state.stack[-1]['kind']} decision has only 'pass', which is taken without asking")


# Types and ranges ---------------------------------------------------------------------------

def _check_fields(rules, state: GameState) -> None:
    """Every field has its type and shape, and its values their range."""
    c, n, spaces = rules.config, rules.num_players, rules.board.num_spaces
    if not (is_int(state.num_players) and state.num_players == n):
        fail(f"num_players = {short(state.num_players)}, the config has {n}")
    check_int("round", state.round, 0, c.max_rounds)
    if not (isinstance(state.phase, str) and state.phase in PHASES):
        fail(f"phase = {short(state.phase)}: unknown phase, expected one of {PHASES}")
    need(isinstance(state.players, list) and len(state.players) == n,
         f"players: expected one per seat ({n})")
    for p, ps in enumerate(state.players):
        where = f"players[{p}]"
        check_int(f"{where}.bp", ps.bp, 0)
        check_int(f"{where}.score", ps.score, 0)
        need(isinstance(ps.genes, dict), f"{where}.genes: expected a dict")
        for key, acquired in ps.genes.items():
            if key not in GENE_INDEX:
                fail(f"{where}.genes: unknown gene {short(key)}")
            if not (type(acquired) is int and 0 <= acquired <= state.round):
                check_int(f"{where}.genes[{key!r}] (the round it was acquired)", acquired, 0,
                     state.round)
        check_ints(f"{where}.amoeba_space", ps.amoeba_space, c.max_amoebas, -1, spaces - 1)
        check_ints(f"{where}.amoeba_damage", ps.amoeba_damage, c.max_amoebas, 0)
        need(isinstance(ps.amoeba_done, list | tuple) and len(ps.amoeba_done) == c.max_amoebas
             and all(is_bool(d) for d in ps.amoeba_done),
             f"{where}.amoeba_done: expected {c.max_amoebas} True/False flags")
        need(is_bool(ps.aggression_used), f"{where}.aggression_used: expected True or False")
    need(isinstance(state.cubes, list | tuple) and len(state.cubes) == spaces,
         f"cubes: expected a row per space ({spaces})")
    for s, row in enumerate(state.cubes):
        check_ints(f"cubes[{s}]", row, n, 0)
    check_ints("supply", state.supply, n, 0)
    check_ints("gene_supply", state.gene_supply, len(GENES), 0)
    check_int("environment_card", state.environment_card, 0, len(c.environment_deck) - 1)
    deck = state.environment_deck
    check_ints("environment_deck", deck, len(deck) if isinstance(deck, list | tuple) else -1, 0,
          len(c.environment_deck) - 1)
    dice = state.dice
    check_ints("dice", dice, len(dice) if isinstance(dice, list | tuple) and len(dice) <= 2
          else -1, 1, 6)
    need(isinstance(state.stack, list) and all(isinstance(f, dict) for f in state.stack),
         "stack: expected a list of frames (dicts)")
    _check_frame_fields(rules, state)


#: :func:`_frame_fields` of each rules object, made once.
_SCHEMAS = per_rules(lambda rules: _frame_fields(rules))


def frame_schema(rules) -> dict[str, dict[str, FieldTest]]:
    """Per frame kind, its fields with what each holds (a description and a test)."""
    return _SCHEMAS(rules)


def _frame_fields(rules) -> dict[str, dict[str, FieldTest]]:
    c, n = rules.config, rules.num_players

    flag = "True or False", is_bool
    seat = int_in(0, n - 1)
    amoeba = int_in(0, c.max_amoebas - 1)
    space = int_in(0, rules.board.num_spaces - 1)
    mode = one_of("turn", "escape")
    kind = one_of("struggle", "aggression")
    mover = {"player": seat, "amoeba": amoeba}
    directions = ("a sorted tuple of at least 2 directions", lambda v: isinstance(v, tuple)
                  and len(v) >= 2 and all(is_int(d) and 0 <= d < len(DIRECTIONS) for d in v)
                  and list(v) == sorted(set(v)))
    carry = (f"() or a tuple of {n} cube counts", lambda v: isinstance(v, tuple)
             and (v == () or (len(v) == n and all(is_int(x) and x >= 0 for x in v))))
    followers = ("a tuple of (seat, amoeba) pairs", lambda v: isinstance(v, tuple) and all(
        isinstance(f, tuple) and len(f) == 2 and seat[1](f[0]) and amoeba[1](f[1])
        for f in v))
    meal = ("a meal", lambda v: isinstance(v, tuple) and v in MEALS)
    fields = {
        "start_space": {"player": seat},
        "place_start": {"player": seat, "damage": (f"0 or {c.start_damage}",
                                                   lambda v: is_int(v)
                                                   and v in (0, c.start_damage))},
        "amoeba_turns": {"player": seat},
        "feed": {**mover, "struggle_used": flag},
        "move": mover,
        "active_move": {**mover, "mode": mode, "step": int_in(1, 2)},
        "direction": {**mover, "mode": mode, "step": int_in(1, 2), "allowed": directions},
        "move_again": {**mover, "mode": mode},
        "relocate": {**mover, "src": space, "dest": space, "mode": mode,
                     "stage": one_of("tentacle", "cling", "execute"), "carry": carry,
                     "followers": followers},
        "tentacle": {**mover, "space": space, "dest": space},
        "cling": {**mover, "mover_player": seat, "mover_amoeba": amoeba, "space": space,
                  "dest": space},
        "parasite_host": {**mover, "meal": meal, "optional": flag},
        "attack": {"attack_kind": kind, "player": seat, "amoeba": int_in(-1, c.max_amoebas - 1),
                   "target_player": seat, "target_amoeba": amoeba, "space": space,
                   "stage": one_of("start", "defend", "success", "failure"), "free": flag,
                   "retry_used": flag, "escape_used": flag, "defense_used": flag},
        "defend": {**mover, "attacker_player": seat, "space": space, "attack_kind": kind,
                   "escape_used": flag, "defense_used": flag},
        "retry": {"player": seat, "amoeba": int_in(-1, c.max_amoebas - 1), "attack_kind": kind,
                  "space": space},
        "aggression": {"player": seat},
        "defect": {"player": seat, "remaining": int_in(1, 10**6)},
        "buy": {"player": seat},
        "division_income": {"player": seat},
        "divide": {"player": seat, "free_used": flag},
    }
    for step in ("setup_order", "setup_amoebas", "begin_round", "phase1", "phase2", "phase3",
                 "phase4", "phase5", "phase6", "natural_deaths", "advance", "end_of_round"):
        fields[step] = {}
    return fields


def _check_frame_fields(rules, state: GameState) -> None:
    """Every frame is of a known kind and has exactly its kind's fields, each in range."""
    schema = frame_schema(rules)
    for i, frame in enumerate(state.stack):
        kind = frame.get("kind")
        if not (isinstance(kind, str) and kind in schema):
            fail(f"stack[{i}]: unknown frame kind {short(kind)}")
        fields = schema[kind]
        if kind == "tentacle" and ("mover_player" in frame or "mover_amoeba" in frame):
            # A clinging amoeba's Tentacle (holding_tentacle) names the mover too
            fields = {**fields, "mover_player": schema["cling"]["mover_player"],
                      "mover_amoeba": schema["cling"]["mover_amoeba"]}
        if len(frame) != len(fields) + 1 or not all(name in frame for name in fields):
            fail(f"stack[{i}] ({kind}): fields {sorted(frame)}, expected "
                 f"{sorted({'kind', *fields})}")
        for name, (what, ok) in fields.items():
            if not ok(frame[name]):
                fail(f"stack[{i}] ({kind}): {name} = {short(frame[name])}, expected {what}")


# Cubes, genes and players -------------------------------------------------------------------

def _check_components(rules, state: GameState) -> None:
    """Cubes and gene cards are conserved; no gene is held with its successor."""
    c, n = rules.config, rules.num_players
    for colour, total in enumerate(map(sum, zip(*state.cubes, state.supply, strict=True))):
        if total != c.cubes_per_colour:
            fail(f"colour {colour}: {total} cubes, expected {c.cubes_per_colour}")
    for i, g in enumerate(GENES):
        owned = sum(g.key in ps.genes for ps in state.players)
        if owned + state.gene_supply[i] != g.copies(n):
            fail(f"{g.name}: {owned} owned + {state.gene_supply[i]} in supply, expected "
                 f"{g.copies(n)} cards")
    for p, ps in enumerate(state.players):
        for basic, higher in SUCCESSORS.items():
            if basic in ps.genes and any(h in ps.genes for h in higher):
                held = [h for h in higher if h in ps.genes]
                fail(f"player {p}: holds {basic} and its successor {held[0]} (a successor "
                     "replaces it)")


def _check_players(rules, state: GameState) -> None:
    """Damage, BP, the ladder, the rounds genes were bought in, Aggression's flag."""
    c, n, phase = rules.config, rules.num_players, state.phase
    waiting_income = {f.get("player") for f in state.stack if f["kind"] == "division_income"}
    for p, ps in enumerate(state.players):
        limit = c.death_damage_longevity + 2
        for amoeba, (sp, dp) in enumerate(zip(ps.amoeba_space, ps.amoeba_damage,
                                              strict=True)):
            if not (dp <= limit and (sp >= 0 or dp == 0)):
                fail(f"player {p} amoeba #{amoeba + 1}: damage {dp} out of bounds")
        # BP come from the start BP and 10 BP in each phase 4 (primordial_soup.md "Phase 4: Cell division").
        incomes = max(state.round - 1, 0) + (phase in ("deaths", "game_over") or (
            phase == "cell_division" and p not in waiting_income))
        most = c.start_bp + c.income_bp * incomes
        need(ps.bp <= most, f"players[{p}].bp = {ps.bp}: more than the start BP and the "
             f"{incomes} incomes so far ({most})")
        if phase in ("setup", "movement_and_feeding", "environment"):
            # Genes are bought in phase 3 (primordial_soup.md "Phase 3: New genes").
            need(all(r < max(state.round, 1) for r in ps.genes.values()),
                 f"players[{p}].genes: acquired in round {state.round}, before its phase 3")
        need(not ps.aggression_used or (phase in ("deaths", "game_over")
                                        and "aggression" in ps.genes),
             f"players[{p}].aggression_used: Aggression is used in phase 5 by its holder "
             f"(phase {phase!r})")
    if state.round >= 1:
        need(len({ps.score for ps in state.players}) == n,
             "two score markers share a space of the scoring ladder")
        need(all(ps.score >= 1 for ps in state.players), "a score marker is off the ladder "
             "(the start spaces are 1..n)")
    # The game ends after the phase 6 that puts a marker in the finish zone; that phase 6
    # moves each marker at most the Advance Table's most plus one space per marker jumped.
    most = (c.finish_zone_start - 1 + ADVANCE_FOR_AMOEBAS[-1] + ADVANCE_FOR_GENES[-1] + n - 1)
    top = c.finish_zone_start - 1 if phase != "game_over" else most
    for p, ps in enumerate(state.players):
        need(ps.score <= top, f"players[{p}].score = {ps.score}: "
             + ("a marker in the finish zone ends the game after phase 6"
                if phase != "game_over" else f"beyond the farthest a marker reaches ({most})"))
    if phase == "game_over":
        need(state.round >= 1 and (not state.environment_deck or any(
            ps.score >= c.finish_zone_start for ps in state.players)),
             "phase 'game_over': the game ends only with a marker in the finish zone or the "
             "last environment card turned")
    elif phase == "scoring":
        need(False, "phase 'scoring': phase 6 is carried out at once, no decision waits in it")


def _check_environment(rules, state: GameState) -> None:
    """One environment card is turned at setup and one in every phase 2."""
    c = rules.config
    deck, card = state.environment_deck, state.environment_card
    need(len(set(deck)) == len(deck) and card not in deck, f"environment_deck {deck}: a card "
         f"twice, or the card on the compass ({card})")
    if state.phase == "setup":
        turned = 1
    elif state.phase == "movement_and_feeding":
        turned = state.round
    else:
        turned = state.round + 1
    need(len(deck) == len(c.environment_deck) - turned, f"environment_deck: {len(deck)} cards "
         f"left in round {state.round}, phase {state.phase}, but {turned} of the "
         f"{len(c.environment_deck)} have been turned (one at setup and one in every phase 2)")
    need(state.phase != "setup" or state.round == 0, "the setup is round 0")
    need(state.phase == "setup" or state.round >= 1, f"round 0 is the setup (phase "
         f"{state.phase!r})")
