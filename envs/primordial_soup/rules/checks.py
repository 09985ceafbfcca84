"""What every Primordial Soup position the rules can reach satisfies: :func:`check_state`,
which ``PrimordialSoupRules.check_state`` runs (and so ``set_state`` on every loaded state,
and the random games and the fuzzer after every step).

Each check raises ``ValueError`` naming the field and the rule (primordial_soup.md) it
breaks. The checks are sound: a position the rules can reach passes them all. The procedure
stack is checked as the round leaves it: the phases still to come, the players still to act
in this phase in the phase's order, and above them the frames of the amoeba turn (or the
attack) under way, each naming amoebas that are on the board.
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
    STAY,
)
from primeval.envs.primordial_soup.rules.common import death_threshold, mutation_points
from primeval.envs.primordial_soup.rules.feeding import meal_options
from primeval.envs.primordial_soup.rules.genes import SUCCESSORS
from primeval.envs.primordial_soup.rules.movement import die_outcomes
from primeval.envs.primordial_soup.state import PHASES, GameState, PlayerState

#: The steps queueing the rest of the round under each phase's frames (phase 6 at the bottom).
LATER_PHASES = {"movement_and_feeding": ("phase6", "phase5", "phase4", "phase3", "phase2"),
                "environment": ("phase6", "phase5", "phase4", "phase3"),
                "new_genes": ("phase6", "phase5", "phase4"),
                "cell_division": ("phase6", "phase5"),
                "deaths": ("phase6",)}
#: Per phase, the frame kinds of the players' turns in it (in the phase's order).
QUEUE_KINDS = {"movement_and_feeding": ("amoeba_turns",), "environment": ("defect",),
               "new_genes": ("buy",), "cell_division": ("division_income", "divide"),
               "deaths": ("aggression",)}
#: Frames that may wait below the pending decision in an amoeba's turn or an attack.
WAITING = ("feed", "move_again", "cling", "relocate", "attack")


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
    _check_stack(rules, state)
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


# The procedure stack ------------------------------------------------------------------------

def _check_stack(rules, state: GameState) -> None:
    """The frames are those the round leaves (see the module docstring)."""
    stack, phase = state.stack, state.phase
    if phase == "game_over":
        need(not stack, "stack: the game is over but frames are pending")
        return
    need(bool(stack), f"stack: empty in phase {phase!r} (only a finished game has no frame)")
    need(stack[-1]["kind"] in rules.registry.decisions, f"stack: the top frame "
         f"({stack[-1]['kind']}) is a step, not a decision (steps are carried out at once)")
    if phase == "setup":
        _check_setup(rules, state)
        return
    later = LATER_PHASES[phase]
    if tuple(f["kind"] for f in stack[:len(later)]) != later:
        fail(f"stack: phase {phase!r} has the round's later phases {list(later)} at the bottom")
    queue_kinds = QUEUE_KINDS[phase]
    queue_kind = queue_kinds[-1]
    rest = stack[len(later):]
    queued = 0
    while queued < len(rest) and rest[queued]["kind"] in queue_kinds:
        queued += 1
    queue, turn = rest[:queued], rest[queued:]
    order = state.ascending() if phase == "movement_and_feeding" else state.descending()
    players = [f["player"] for f in reversed(queue)]  # the next to act first
    need(bool(players) or phase == "deaths", f"stack: no player's {queue_kind} in phase "
         f"{phase!r}")
    # In phase 5 the Aggression frame of the player attacking now was taken off the stack.
    current = turn[0]["player"] if phase == "deaths" and turn else players[0]
    start = order.index(current)
    expected = [q for q in order[start:] if not (phase == "deaths" and turn and q == current)]
    if phase == "environment":  # only the players owing a gene defect pay one
        expected = [q for q in expected if q == current or _due(rules, state, q) > 0]
    order_name = "ascending" if phase == "movement_and_feeding" else "descending"
    need(players == expected, f"stack: the players still to act in phase {phase!r} are "
         f"{players}, expected {expected} ({order_name} ladder order)")
    kinds = [f["kind"] for f in queue]
    if phase == "cell_division":
        need(kinds[-1] == "divide" and all(k == "division_income" for k in kinds[:-1]),
             "stack: in phase 4 the dividing player is on top of the incomes still to come")
        need(not queue[-1]["free_used"] or state.players[current].amoebas_on_board(),
             f"stack (divide of player {current}): the free amoeba was placed, yet none is "
             "on the board")
    if phase == "deaths" and not turn:
        need(not state.players[current].aggression_used, f"players[{current}]."
             "aggression_used: Aggression is used once per round, when attacking")
    _check_phase_turns(rules, state, order, current)
    if phase == "environment":
        _check_defects(rules, state, queue)
    if phase in ("movement_and_feeding", "deaths"):
        _check_turn_frames(rules, state, turn, current)
    else:
        need(not turn, f"stack: frames {[f['kind'] for f in turn]} above phase {phase!r}'s "
             "turns")


def _due(rules, state: GameState, p: int) -> int:
    """The gene defect player ``p`` owes this phase 2: its MP above the ozone value."""
    ozone = rules.config.environment_deck[state.environment_card][1]
    return mutation_points(state.players[p]) - ozone


def _check_defects(rules, state: GameState, queue: list[dict]) -> None:
    """Phase 2: a defect still to pay is the whole due; the one being paid has paid some."""
    for i, frame in enumerate(queue):
        p, due = frame["player"], _due(rules, state, frame["player"])
        if i == len(queue) - 1:
            need(frame["remaining"] <= due, f"stack (defect of player {p}): remaining "
                 f"{frame['remaining']}, more than the {due} MP above the ozone value")
        else:
            need(frame["remaining"] == due, f"stack (defect of player {p}): remaining "
                 f"{frame['remaining']}, but player {p} owes {due} and has not paid yet")


def _check_phase_turns(rules, state: GameState, order: list[int], current: int) -> None:
    """What the players before and after the current one in the phase's order have done."""
    c, phase = rules.config, state.phase
    before = order[: order.index(current)]
    after = order[order.index(current) + 1:]
    for p, ps in enumerate(state.players):
        if phase == "new_genes" and p in after:
            need(all(r < state.round for r in ps.genes.values()), f"players[{p}].genes: "
                 f"acquired in round {state.round}, but player {p} buys later in phase 3")
        if phase == "movement_and_feeding":
            on_board = [i for i, sp in enumerate(ps.amoeba_space) if sp >= 0]
            if p in before:
                need(all(ps.amoeba_done[i] for i in on_board), f"players[{p}].amoeba_done: "
                     f"player {p} has had its phase-1 turn (ascending order), so its "
                     "amoebas on the board are done")
            elif p in after and not c.relocated_amoeba_feeds:
                need(not any(ps.amoeba_done), f"players[{p}].amoeba_done: player {p} moves "
                     "later in phase 1 (ascending order)")
        if phase == "deaths":
            threshold = death_threshold(c, ps)
            need(all(ps.amoeba_damage[i] < threshold for i in ps.amoebas_on_board()),
                 f"players[{p}].amoeba_damage: an amoeba with {threshold} DP survived "
                 "phase 5's natural deaths, which come before Aggression")
            need(not (ps.aggression_used and p in after), f"players[{p}].aggression_used: "
                 f"player {p} has not had its Aggression turn (descending order)")


def _on_board(state: GameState, player: int, amoeba: int) -> bool:
    return 0 <= amoeba < len(state.players[player].amoeba_space) and \
        state.players[player].amoeba_space[amoeba] >= 0


def _check_turn_frames(rules, state: GameState, turn: list[dict], current: int) -> None:
    """The frames of the amoeba turn (phase 1) or the Aggression attack (phase 5) under way,
    bottom up: the amoeba's feeding, its move, an attack and its defence, Escape's move,
    Tentacle and Holding on a relocation."""
    phase = state.phase
    struggle = phase == "movement_and_feeding"
    where = "stack (the amoeba turn under way)" if struggle else "stack (phase 5)"
    if not struggle:
        if not turn:
            return
        need(turn[0]["kind"] in ("attack", "retry") and turn[0]["player"] == current
             and turn[0]["amoeba"] == -1, f"{where}: Aggression's attack is at the bottom")
        need(state.players[current].aggression_used, f"players[{current}].aggression_used: "
             "an Aggression attack is under way")
    else:
        need(bool(turn), f"{where}: no amoeba of player {current} is taking its turn")
        first = turn[0]
        need(first["kind"] in ("feed", "parasite_host", "attack", "retry")
             and first["player"] == current, f"{where}: an amoeba of player {current} "
             f"takes its turn, found {first['kind']} of player {first['player']}")
        amoeba = first["amoeba"]
        ps = state.players[current]
        need(_on_board(state, current, amoeba) and ps.amoeba_done[amoeba],
             f"{where}: amoeba #{amoeba + 1} of player {current} takes its turn, so it is on "
             "the board and done")
        need(all(ps.amoeba_done[i] for i in range(amoeba) if ps.amoeba_space[i] >= 0),
             f"players[{current}].amoeba_done: amoebas take their turns in number order")
    top = turn[-1]
    attack = reloc = None
    for i, frame in enumerate(turn):
        kind, p = frame["kind"], frame["player"]
        what = f"{where}: {kind} of player {p}"
        need(kind in (*WAITING, "move", "direction", "tentacle", "parasite_host", "defend",
                      "retry"), f"{where}: a {kind} frame in an amoeba's turn")
        need(frame is top or kind in WAITING, f"{what} waits below another decision")
        if kind != "attack" and frame["amoeba"] >= 0:
            need(_on_board(state, p, frame["amoeba"]), f"{what}: amoeba "
                 f"#{frame['amoeba'] + 1} is not on the board")
        if kind in ("feed", "parasite_host"):
            need(struggle and (p == current or rules.config.relocated_amoeba_feeds),
                 f"{what}: feeding out of its turn")
        elif kind in ("attack", "retry"):
            need(i == 0, f"{what}: an attack starts a turn's frames")
            need(frame["attack_kind"] == ("struggle" if struggle else "aggression"),
                 f"{what}: a {frame['attack_kind']} attack in phase {phase!r}")
            if kind == "attack":
                attack = frame
                _check_attack(rules, state, frame, what)
        elif kind == "defend":
            need(attack is not None and i == len(turn) - 1 and turn[i - 1] is attack,
                 f"{what}: a defence is decided right above its attack")
            need(p == attack["target_player"] and frame["amoeba"] == attack["target_amoeba"]
                 and frame["attacker_player"] == attack["player"]
                 and all(frame[k] == attack[k] for k in ("space", "attack_kind",
                                                         "escape_used", "defense_used")),
                 f"{what}: does not match the attack it defends against")
        elif kind == "relocate":
            need(reloc is None, f"{what}: two relocations at once")
            reloc = frame
            _check_relocation(rules, state, frame, what, turn[i + 1:])
        elif kind in ("tentacle", "cling"):
            need(reloc is not None and frame["space"] == reloc["src"]
                 and frame["dest"] == reloc["dest"], f"{what}: no relocation from "
                 f"{frame['space']} to {frame['dest']} under way")
            gene = "tentacle" if kind == "tentacle" else "holding"
            need(gene in state.players[p].genes, f"{what}: player {p} has no {gene} gene")
            clinging = kind == "cling" or "mover_player" in frame
            if clinging:
                mover = (reloc["player"], reloc["amoeba"])
                need((frame["mover_player"], frame["mover_amoeba"]) == mover
                     and reloc["stage"] == "execute", f"{what}: the mover does not match the "
                     "relocation")
                need(state.players[p].amoeba_space[frame["amoeba"]] == reloc["src"]
                     and (p, frame["amoeba"]) != mover, f"{what}: the amoeba is not on the "
                     "space being left")
                follows = (p, frame["amoeba"]) in reloc["followers"]
                need(follows == (kind == "tentacle"), f"{what}: " + (
                    "only an amoeba that clings takes cubes along" if kind == "tentacle"
                    else "the amoeba already clings"))
            else:
                need((p, frame["amoeba"]) == (reloc["player"], reloc["amoeba"])
                     and reloc["stage"] == "cling", f"{what}: the mover's Tentacle is "
                     "decided before anyone clings")
        if kind in ("move", "direction", "move_again", "relocate"):
            escape = kind != "move" and frame["mode"] == "escape"
            if escape:
                need(attack is not None and attack["escape_used"]
                     and (p, frame["amoeba"]) == (attack["target_player"],
                                                  attack["target_amoeba"]),
                     f"{what}: an Escape move without an attack escaped from")
            else:
                need(struggle and p == current and frame["amoeba"] == turn[0]["amoeba"]
                     and attack is None, f"{what}: a move in another amoeba's turn")
        if kind == "direction":
            _check_direction(rules, state, frame, what)
        if kind == "parasite_host":
            space = state.players[p].amoeba_space[frame["amoeba"]]
            options = meal_options(rules, state, p, space)
            need(frame["meal"] in options and options[frame["meal"]]
                 == (frame["optional"], True), f"{what}: the meal {frame['meal']} is not one "
                 "Parasitism makes possible there")


def _check_direction(rules, state: GameState, frame: dict, what: str) -> None:
    """A choice of direction follows from the dice just rolled (Movement I rolls two), or
    is free with Movement II (primordial_soup.md "Compass and dice")."""
    ps = state.players[frame["player"]]
    if ps.has("movement_2"):
        need(frame["allowed"] == tuple(range(len(DIRECTIONS))), f"{what}: Movement II "
             "chooses any direction")
        return
    dice = 2 if ps.has("movement_1") else 1
    if len(state.dice) != dice:
        fail(f"dice {list(state.dice)}: the move rolled {dice} "
             f"{'die' if dice == 1 else 'dice'}")
    allowed = tuple(sorted({o for face in state.dice for o in die_outcomes(rules, face)}))
    if frame["allowed"] != allowed:
        fail(f"{what}: directions {list(frame['allowed'])}, the "
             f"dice {list(state.dice)} allow {list(allowed)}")


def _check_attack(rules, state: GameState, frame: dict, what: str) -> None:
    """An attack waits only for the defence: its attacker and target are on the board."""
    need(frame["stage"] == "defend", f"{what}: stage {frame['stage']!r} is carried out at once")
    if frame["attack_kind"] == "struggle":
        need(frame["amoeba"] >= 0 and _on_board(state, frame["player"], frame["amoeba"]),
             f"{what}: the attacking amoeba is not on the board")
    else:
        need(frame["amoeba"] == -1, f"{what}: Aggression attacks with no amoeba of its own")
    tp, tb = frame["target_player"], frame["target_amoeba"]
    need(_on_board(state, tp, tb) and (tp, tb) != (frame["player"], frame["amoeba"]),
         f"{what}: the target amoeba #{tb + 1} of player {tp} is not on the board")
    need(frame["free"] == frame["retry_used"], f"{what}: only Persistence's retry is free")


def _check_relocation(rules, state: GameState, frame: dict, what: str,
                      above: list[dict]) -> None:
    """A relocation under way: the mover and the clinging amoebas still on the space they
    leave, the destination next to it, the cubes taken along there."""
    src, dest = frame["src"], frame["dest"]
    mover = (frame["player"], frame["amoeba"])
    need(state.players[mover[0]].amoeba_space[mover[1]] == src, f"{what}: the moving amoeba "
         f"is not on space {src}")
    need(dest in rules.board.neighbours[src][:STAY] and dest != src, f"{what}: space {dest} "
         f"is not next to space {src}")
    need(frame["stage"] in ("cling", "execute"), f"{what}: stage {frame['stage']!r} is "
         "carried out at once")
    if frame["stage"] == "cling":
        need(len(above) == 1 and above[0]["kind"] == "tentacle", f"{what}: waits for the "
             "mover's Tentacle")
    else:
        need(above and all(f["kind"] in ("cling", "tentacle") for f in above), f"{what}: "
             "waits for Holding amoebas to cling (or their Tentacle)")
    carry = frame["carry"] or (0,) * rules.num_players
    if not (all(t <= have for t, have in zip(carry, state.cubes[src], strict=True))):
        fail(f"{what}: carries {list(carry)} cubes, space {src} has {state.cubes[src]}")
    need(sum(carry) <= rules.config.tentacle_limit * (1 + len(frame["followers"])),
         f"{what}: more cubes taken along than Tentacle allows")
    seen = set()
    for q, b in frame["followers"]:
        need((q, b) != mover and (q, b) not in seen and state.players[q].amoeba_space[b] == src
             and "holding" in state.players[q].genes, f"{what}: follower amoeba #{b + 1} of "
             f"player {q} does not cling on space {src}")
        seen.add((q, b))


def _check_setup(rules, state: GameState) -> None:
    """The setup (primordial_soup.md "Setup"): start spaces chosen by the dice order, then
    the start amoebas, first ones ascending, second ones descending; nothing else yet."""
    c, n, stack = rules.config, rules.num_players, state.stack
    for p, ps in enumerate(state.players):
        need(ps.bp == c.start_bp and not ps.genes and not any(ps.amoeba_done)
             and not ps.aggression_used, f"players[{p}]: the setup has the start BP, no gene "
             "and no turn taken")
    need(all(all(x == c.setup_cubes_per_space for x in row) for row in state.cubes),
         "cubes: the setup cubes lie on every space until the first round")
    if state.dice != ():
        fail(f"dice {list(state.dice)}: no die is rolled for a move in the "
             "setup")
    scores = [ps.score for ps in state.players]
    placed = [len(ps.amoebas_on_board()) for ps in state.players]
    if stack[0]["kind"] == "setup_amoebas":
        pending = [f["player"] for f in stack[1:]]
        need(all(f["kind"] == "start_space" for f in stack[1:])
             and len(set(pending)) == len(pending), "stack: the setup's start-space choices "
             "(one per player) above the placing of the start amoebas")
        chosen = [s for p, s in enumerate(scores) if p not in pending]
        need(all(scores[p] == 0 for p in pending) and len(set(chosen)) == len(chosen)
             and all(1 <= s <= n for s in chosen), f"scores {scores}: the players who "
             f"have chosen hold distinct start spaces 1..{n}, the others none yet")
        need(not any(placed), "the start amoebas are placed after the start spaces")
        return
    need(stack[0]["kind"] == "begin_round", "stack: the setup has the first round under its "
         "choices")
    need(sorted(scores) == list(range(1, n + 1)), f"scores {scores}: the start spaces are "
         f"1..{n}, one per player")
    desc = state.descending()
    full = [{"kind": "place_start", "player": p, "damage": 0} for p in reversed(desc)]
    full += [{"kind": "place_start", "player": p, "damage": c.start_damage}
             for p in reversed(desc[::-1])]
    need(stack[1:] == full[: len(stack) - 1], "stack: the start amoebas are placed first "
         "ascending (with the start damage), then descending")
    left = [sum(f["player"] == p for f in stack[1:]) for p in range(n)]
    spaces = [sp for ps in state.players for sp in ps.amoeba_space if sp >= 0]
    need(len(set(spaces)) == len(spaces), "a start amoeba goes on a space with no amoeba")
    for p, ps in enumerate(state.players):
        damage = sorted(ps.amoeba_damage[i] for i in ps.amoebas_on_board())
        expected = sorted([c.start_damage, 0][: 2 - left[p]])
        need(placed[p] == 2 - left[p] and damage == expected, f"players[{p}]: "
             f"{placed[p]} start amoebas with damage {damage}, expected {2 - left[p]} with "
             f"{expected}")
