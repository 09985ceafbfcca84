"""The procedure stack of a Primordial Soup position, checked as the round leaves it
(:func:`check_stack`, run by :func:`~.checks.check_state`): the phases still to come, the
players still to act in this phase in the phase's order, and above them the frames of the
amoeba turn (or the attack) under way, each naming amoebas that are on the board; before the
first round, the setup's choices. Each check raises ``ValueError`` naming the field and the
rule (primordial_soup.md) it breaks.
"""

from __future__ import annotations

from primeval.envs.core.validate import (
    fail,
    need,
)
from primeval.envs.primordial_soup.data import (
    DIRECTIONS,
    STAY,
)
from primeval.envs.primordial_soup.rules.common import death_threshold, mutation_points
from primeval.envs.primordial_soup.rules.feeding import meal_options
from primeval.envs.primordial_soup.rules.movement import die_outcomes
from primeval.envs.primordial_soup.state import GameState

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



# The round's frames ------------------------------------------------------------------------

def check_stack(rules, state: GameState) -> None:
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
