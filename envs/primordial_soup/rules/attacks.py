"""Attacks (primordial_soup.md "Genes" and "Attacks"): Struggle for Survival, Aggression,
Escape, Defense, Armor and Persistence.

An attack is a step with stages. The attacked amoeba's owner decides on Escape and Defense
(each at most once per attack, in any order: a failed Escape leaves Defense open, and with
``escape_after_lost_defense`` a lost Defense fight leaves Escape open); a failed Struggle,
Defense fight or Aggression gets one free retry with Persistence.
"""

from __future__ import annotations

from primeval.envs.primordial_soup.actions import Defence
from primeval.envs.primordial_soup.rules.common import (
    absolute,
    death_threshold,
    place_cubes_each_colour,
    remove_amoeba,
    roll_die,
)
from primeval.envs.primordial_soup.rules.movement import move_cost
from primeval.envs.primordial_soup.rules.registry import decision, step


def struggle_targets(state, player: int, amoeba: int) -> list[tuple[int, int]]:
    """Amoebas on the attacker's space, own ones included, except itself and armored ones."""
    space = state.players[player].amoeba_space[amoeba]
    return [
        (q, b) for q, b in state.amoebas_at(space)
        if (q, b) != (player, amoeba) and not state.players[q].has("armor")
    ]


def aggression_targets(state, player: int) -> list[tuple[int, int]]:
    """Foreign amoebas on a space shared with one of the player's amoebas (Armor allowed)."""
    own_spaces = {sp for sp in state.players[player].amoeba_space if sp >= 0}
    return [(q, b) for sp in sorted(own_spaces) for q, b in state.amoebas_at(sp) if q != player]


def _defences(rules, state, attack) -> list[Defence]:
    """Defences still open to the target."""
    ps = state.players[attack["target_player"]]
    options = []
    if ps.has("escape") and not attack["escape_used"] and ps.bp >= move_cost(rules, ps):
        options.append(Defence.ESCAPE)
    if ps.has("defense") and not attack["defense_used"] and ps.bp >= 1:
        options.append(Defence.DEFENSE)
    return options


def _fight(state, rng) -> bool:
    """A Defense fight: both roll a die, the higher wins, ties re-roll. True if the
    defender wins."""
    while True:
        attacker, defender = roll_die(rng), roll_die(rng)
        state.dice = (attacker, defender)
        if attacker != defender:
            return defender > attacker


def _fail(rules, state, attack) -> None:
    """A failed attack: Persistence gives one free retry; otherwise a Struggle attacker
    starves, an Aggression attacker simply stops."""
    player = attack["player"]
    if state.players[player].has("persistence") and not attack["retry_used"]:
        state.stack.append(
            {"kind": "retry", "player": player, "amoeba": attack["amoeba"],
             "attack_kind": attack["attack_kind"], "space": attack["space"]}
        )
    elif attack["attack_kind"] == "struggle":
        state.players[player].amoeba_damage[attack["amoeba"]] += 1


@step("attack")
def attack(rules, state, frame, rng) -> None:
    """Resolve an attack stage by stage: start (pay, Armor), defend, success or failure."""
    config = rules.config
    tp, tb, space = frame["target_player"], frame["target_amoeba"], frame["space"]
    target = state.players[tp]
    if frame["stage"] == "start":
        frame["stage"] = "defend"
        if not frame["free"]:
            state.players[frame["player"]].bp -= 1
        if frame["attack_kind"] == "aggression" and target.has("armor"):
            # Armor: the defence always succeeds but costs 1 DP; the amoeba dies at once if
            # that reaches its threshold. This counts as a success (no Persistence retry).
            state.stack.pop()
            target.amoeba_damage[tb] += 1
            if target.amoeba_damage[tb] >= death_threshold(config, target):
                remove_amoeba(state, tp, tb)
                place_cubes_each_colour(state, space, config.natural_death_cubes)
            return
    if frame["stage"] == "defend":
        if (frame["attack_kind"] == "struggle"
                and state.players[frame["player"]].amoeba_space[frame["amoeba"]] != space):
            # The attacker followed the escaping target by Holding (checked before the
            # escape itself, which also moved the target): the attack ends and the attacker
            # may still eat at its new space.
            state.stack.pop()
            state.stack.append({"kind": "feed", "player": frame["player"],
                                "amoeba": frame["amoeba"], "struggle_used": True})
            return
        if target.amoeba_space[tb] != space:  # the target escaped
            frame["stage"] = "failure"
        elif _defences(rules, state, frame):
            state.stack.append(
                {"kind": "defend", "player": tp, "amoeba": tb,
                 "attacker_player": frame["player"], "space": space,
                 "attack_kind": frame["attack_kind"], "escape_used": frame["escape_used"],
                 "defense_used": frame["defense_used"]}
            )
            return
        else:
            frame["stage"] = "success"
    state.stack.pop()
    if frame["stage"] == "success":
        remove_amoeba(state, tp, tb)
        cubes = (config.violent_death_cubes if frame["attack_kind"] == "struggle"
                 else config.aggression_kill_cubes)
        place_cubes_each_colour(state, space, cubes)
    else:
        _fail(rules, state, frame)


@decision("defend", "player_{player} defends amoeba #{number} against an attack")
class Defend:
    """The attacked amoeba's owner may use Escape (an out-of-turn active move for 1 BP, free
    with Streamlining) and Defense (a die fight for 1 BP), or yield (``pass``).

    After a lost fight (``defense_used`` set and the decision offered again) only Escape and
    ``pass`` remain: passing lets the attacker eat the amoeba."""

    @staticmethod
    def legal(rules, state, frame, mask) -> None:
        for d in _defences(rules, state, state.stack[-2]):
            rules.layout.allow(mask, "defend", d)
        rules.layout.allow(mask, "pass")

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        state.stack.pop()
        attack_frame = state.stack[-1]
        ps = state.players[frame["player"]]
        if segment == "pass":
            attack_frame["stage"] = "success"
        elif index == Defence.ESCAPE:
            attack_frame["escape_used"] = True
            ps.bp -= move_cost(rules, ps)
            state.stack.append(
                {"kind": "active_move", "player": frame["player"], "amoeba": frame["amoeba"],
                 "mode": "escape", "step": 1}
            )
        else:  # Defence.DEFENSE
            attack_frame["defense_used"] = True
            ps.bp -= 1
            won = _fight(state, rng)
            if not won and ps.has("persistence"):
                won = _fight(state, rng)  # Persistence: one free second fight
            if won:
                attack_frame["stage"] = "failure"
            elif not (rules.config.escape_after_lost_defense
                      and Defence.ESCAPE in _defences(rules, state, attack_frame)):
                attack_frame["stage"] = "success"
            # else: the stage stays "defend", so Escape is offered before the attacker eats


@decision("retry", "player_{player} may attack again (Persistence)")
class Retry:
    """Persistence: after a failed Struggle or Aggression, one free second attempt."""

    @staticmethod
    def legal(rules, state, frame, mask) -> None:
        player = frame["player"]
        if frame["attack_kind"] == "struggle":
            targets = struggle_targets(state, player, frame["amoeba"])
        else:
            targets = aggression_targets(state, player)
        view = rules.layout.segment_view(mask, "attack")
        for q, b in targets:
            view[(q - player) % state.num_players, b] = True
        rules.layout.allow(mask, "pass")

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        state.stack.pop()
        player = frame["player"]
        if segment == "pass":
            if frame["attack_kind"] == "struggle":
                state.players[player].amoeba_damage[frame["amoeba"]] += 1
            return
        offset, b = index
        q = absolute(state, player, offset)
        state.stack.append(
            {"kind": "attack", "attack_kind": frame["attack_kind"], "player": player,
             "amoeba": frame["amoeba"], "target_player": q, "target_amoeba": b,
             "space": state.players[q].amoeba_space[b], "stage": "start", "free": True,
             "retry_used": True, "escape_used": False, "defense_used": False}
        )


@decision("aggression", "player_{player} may attack with Aggression")
class Aggression:
    """Aggression, phase 5 after all natural deaths, once per round: for 1 BP kill one foreign
    amoeba on a space shared with one of your amoebas; it leaves 2 cubes of each colour."""

    @staticmethod
    def legal(rules, state, frame, mask) -> None:
        player = frame["player"]
        ps = state.players[player]
        if ps.has("aggression") and not ps.aggression_used and ps.bp >= 1:
            view = rules.layout.segment_view(mask, "attack")
            for q, b in aggression_targets(state, player):
                view[(q - player) % state.num_players, b] = True
        rules.layout.allow(mask, "pass")

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        state.stack.pop()
        if segment == "pass":
            return
        player = frame["player"]
        state.players[player].aggression_used = True
        offset, b = index
        q = absolute(state, player, offset)
        state.stack.append(
            {"kind": "attack", "attack_kind": "aggression", "player": player, "amoeba": -1,
             "target_player": q, "target_amoeba": b,
             "space": state.players[q].amoeba_space[b], "stage": "start", "free": False,
             "retry_used": False, "escape_used": False, "defense_used": False}
        )
