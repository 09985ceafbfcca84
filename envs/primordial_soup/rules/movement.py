"""Movement (primordial_soup.md "Compass and dice", "Genes" and "Phase 1: Move and feed"):
drift, active moves, Speed, Tentacle, Holding.

An active move pays 1 BP (0 with Streamlining) and rolls one die for the direction
(1=W 2=N 3=E 4=S 5=stay 6=free choice); Movement I rolls two dice and uses either, Movement II
chooses freely. Edges and the island block a move: the amoeba stays and the BP is spent.
Every relocation (drift, active move, Escape) lets Tentacle take cubes from the space left and
lets opposing Holding amoebas on that space cling on; a clinging amoeba may use its own
Tentacle too (``holding_tentacle``). The same machinery serves Escape.
"""

from __future__ import annotations

from primeval.envs.primordial_soup.actions import TAKES, MoveChoice
from primeval.envs.primordial_soup.data import (
    DIRECTIONS,
    EAST,
    FREE_CHOICE_FACE,
    NORTH,
    SOUTH,
    STAY,
    WEST,
)
from primeval.envs.primordial_soup.rules.common import absolute, roll_die
from primeval.envs.primordial_soup.rules.registry import decision, step


def move_cost(rules, ps) -> int:
    """BP for an active move (also the price of an Escape move): 0 with Streamlining."""
    return 0 if ps.has("streamlining") else rules.config.move_cost


def die_outcomes(rules, face: int) -> tuple[int, ...]:
    """Compass outcomes a die face allows: its direction, or any on a 6."""
    if face == FREE_CHOICE_FACE:
        compass = (WEST, NORTH, EAST, SOUTH)
        return (*compass, STAY) if rules.config.six_allows_stay else compass
    return (face - 1,)  # faces 1-4 are W, N, E, S


def start_relocation(state, player: int, amoeba: int, direction: int, board,
                     mode: str = "turn") -> None:
    """Move an amoeba one space in a compass direction, unless an edge or the island blocks.

    ``mode`` is "turn" for the amoeba's own phase-1 move and "escape" for an Escape move.
    """
    src = state.players[player].amoeba_space[amoeba]
    dest = board.neighbours[src][direction]
    if dest >= 0 and dest != src:
        state.stack.append(
            {"kind": "relocate", "player": player, "amoeba": amoeba, "src": src, "dest": dest,
             "mode": mode, "stage": "tentacle", "carry": (), "followers": ()}
        )


@decision("move", "player_{player} chooses how amoeba #{number} moves")
class Move:
    """Each amoeba must drift, or pay and move actively; Holding may stay instead."""

    @staticmethod
    def legal(rules, state, frame, mask) -> None:
        ps = state.players[frame["player"]]
        rules.layout.allow(mask, "move", MoveChoice.DRIFT)  # always possible
        if ps.bp >= move_cost(rules, ps):
            rules.layout.allow(mask, "move", MoveChoice.ACTIVE_MOVE)
        if ps.has("holding"):
            rules.layout.allow(mask, "move", MoveChoice.HOLD)

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        state.stack.pop()
        player, amoeba = frame["player"], frame["amoeba"]
        if index == MoveChoice.DRIFT:  # one space in the drift direction; "none": stay
            drift = rules.config.environment_deck[state.environment_card][0]
            if drift != "none":
                start_relocation(state, player, amoeba, DIRECTIONS.index(drift), rules.board)
        elif index == MoveChoice.ACTIVE_MOVE:
            ps = state.players[player]
            ps.bp -= move_cost(rules, ps)
            state.stack.append(
                {"kind": "active_move", "player": player, "amoeba": amoeba, "mode": "turn",
                 "step": 1}
            )
        # MoveChoice.HOLD: stay in place


@step("active_move")
def active_move(rules, state, frame, rng) -> None:
    """Roll for the direction (or choose it with Movement II), then offer Speed's second move.

    ``mode`` is "turn" in phase 1 and "escape" for an Escape move; the BP were already paid.
    """
    state.stack.pop()
    player, amoeba = frame["player"], frame["amoeba"]
    ps = state.players[player]
    if frame["step"] == 1 and (ps.has("speed") or ps.has("persistence")):
        state.stack.append(
            {"kind": "move_again", "player": player, "amoeba": amoeba, "mode": frame["mode"]}
        )
    if ps.has("movement_2"):
        allowed = tuple(range(len(DIRECTIONS)))
    else:
        faces = tuple(roll_die(rng) for _ in range(2 if ps.has("movement_1") else 1))
        state.dice = faces
        allowed = tuple(sorted({o for f in faces for o in die_outcomes(rules, f)}))
    if len(allowed) == 1:
        start_relocation(state, player, amoeba, allowed[0], rules.board, frame["mode"])
    else:
        state.stack.append(
            {"kind": "direction", "player": player, "amoeba": amoeba, "mode": frame["mode"],
             "step": frame["step"], "allowed": allowed}
        )


@decision("direction", "player_{player} chooses the direction of amoeba #{number}")
class Direction:
    """A free choice of direction: a rolled 6, Movement I's two dice, or Movement II."""

    @staticmethod
    def legal(rules, state, frame, mask) -> None:
        for d in frame["allowed"]:
            rules.layout.allow(mask, "direction", d)

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        state.stack.pop()
        start_relocation(state, frame["player"], frame["amoeba"], index, rules.board,
                         frame["mode"])


@decision("move_again", "player_{player} may move amoeba #{number} a second time (Speed)")
class MoveAgain:
    """Speed (and Persistence): a second active move from where the first ended, no extra
    BP. Only after an active move: no double drift."""

    @staticmethod
    def legal(rules, state, frame, mask) -> None:
        rules.layout.allow(mask, "move_again")
        rules.layout.allow(mask, "pass")

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        state.stack.pop()
        if segment == "move_again":
            state.stack.append(
                {"kind": "active_move", "player": frame["player"], "amoeba": frame["amoeba"],
                 "mode": frame["mode"], "step": 2}
            )


@step("relocate")
def relocate(rules, state, frame, rng) -> None:
    """Carry out a relocation in three stages: Tentacle, then Holding, then the move.

    Holding owners declare after the direction is fixed and the mover's Tentacle cubes are
    known (primordial_soup.md "Holding"); with ``holding_tentacle`` each clinging amoeba with
    Tentacle then takes its own cubes, right after its cling. ``carry`` holds every cube taken
    along (by absolute colour), the mover's and the clinging amoebas' together.
    """
    player, src = frame["player"], frame["src"]
    if frame["stage"] == "tentacle":
        frame["stage"] = "cling"
        if _may_take(rules, state, player, frame):
            state.stack.append(
                {"kind": "tentacle", "player": player, "amoeba": frame["amoeba"], "space": src,
                 "dest": frame["dest"]}
            )
        return
    if frame["stage"] == "cling":
        frame["stage"] = "execute"
        for q, b in reversed(cling_candidates(rules, state, frame)):
            state.stack.append(
                {"kind": "cling", "player": q, "amoeba": b, "mover_player": player,
                 "mover_amoeba": frame["amoeba"], "space": src, "dest": frame["dest"]}
            )
        return
    state.stack.pop()
    dest = frame["dest"]
    state.players[player].amoeba_space[frame["amoeba"]] = dest
    for q, b in frame["followers"]:
        state.players[q].amoeba_space[b] = dest
    for colour, count in enumerate(frame["carry"]):
        state.cubes[src][colour] -= count
        state.cubes[dest][colour] += count
    if rules.config.relocated_amoeba_feeds and state.phase == "movement_and_feeding":
        carried = list(frame["followers"])
        if frame["mode"] == "escape":
            carried.insert(0, (player, frame["amoeba"]))
        for q, b in reversed(carried):
            _feed_out_of_turn(state, q, b)


def _feed_out_of_turn(state, player: int, amoeba: int) -> None:
    """With ``relocated_amoeba_feeds``: an amoeba moved by Escape or carried by Holding feeds
    at its new space at once, and this replaces its own phase-1 turn (no Struggle from an
    interrupt). An amoeba in the middle of its own turn (a Struggle attacker following its
    target) is left to that turn."""
    if any(f["kind"] in ("feed", "attack") and f.get("player") == player
           and f.get("amoeba") == amoeba for f in state.stack):
        return
    state.players[player].amoeba_done[amoeba] = True
    state.stack.append(
        {"kind": "feed", "player": player, "amoeba": amoeba, "struggle_used": True}
    )


def cling_candidates(rules, state, frame) -> list[tuple[int, int]]:
    """Holding amoebas on the space being left that may cling to the mover: opposing ones
    (also one's own with ``holding_follows_own``), in turn order from the mover."""
    mover = frame["player"]
    result = []
    for offset in range(state.num_players):
        q = absolute(state, mover, offset)
        if not state.players[q].has("holding"):
            continue
        if q == mover and not rules.config.holding_follows_own:
            continue
        for b, space in enumerate(state.players[q].amoeba_space):
            if space == frame["src"] and (q, b) != (mover, frame["amoeba"]):
                result.append((q, b))
    return result


def tentacle_available(state, reloc: dict) -> list[int]:
    """Cubes (by absolute colour) on the space being left that are not yet taken along."""
    carry = reloc["carry"] or (0,) * state.num_players
    return [c - t for c, t in zip(state.cubes[reloc["src"]], carry, strict=True)]


def _may_take(rules, state, player: int, reloc: dict) -> bool:
    """Whether ``player``'s Tentacle can take a cube along in this relocation (no dead end:
    only when a cube is left to take)."""
    return (state.players[player].has("tentacle") and rules.config.tentacle_limit > 0
            and any(tentacle_available(state, reloc)))


def _relocation_below(state) -> dict:
    for f in reversed(state.stack):
        if f["kind"] == "relocate":
            return f
    raise RuntimeError("no relocation in progress")


@decision("tentacle", "player_{player} chooses cubes for amoeba #{number} to take (Tentacle)")
class Tentacle:
    """Tentacle: on every relocation take up to 3 cubes (2 with 3 players) along, for free.

    A clinging amoeba's take (``holding_tentacle``) has ``mover_player``/``mover_amoeba`` in
    its frame and chooses among the cubes the earlier takes left."""

    @staticmethod
    def legal(rules, state, frame, mask) -> None:
        player, n = frame["player"], state.num_players
        cubes = tentacle_available(state, _relocation_below(state))
        here = [cubes[absolute(state, player, k)] if k < n else 0 for k in range(4)]
        limit = rules.config.tentacle_limit
        view = rules.layout.segment_view(mask, "tentacle")
        for i, take in enumerate(TAKES):
            if sum(take) <= limit and all(t <= h for t, h in zip(take, here, strict=True)):
                view[i] = True
        rules.layout.allow(mask, "pass")

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        state.stack.pop()
        if segment == "tentacle":
            take = TAKES[index]
            reloc = _relocation_below(state)
            carry = list(reloc["carry"] or (0,) * state.num_players)
            for k, count in enumerate(take[: state.num_players]):
                carry[absolute(state, frame["player"], k)] += count
            reloc["carry"] = tuple(carry)


@decision("cling", "player_{player} may let amoeba #{number} cling to the leaving amoeba")
class Cling:
    """Holding, second function: when an opposing amoeba leaves the space, cling and move
    along with it; with ``holding_tentacle`` the clinging amoeba's Tentacle may then take
    cubes along too (primordial_soup.md "Holding")."""

    @staticmethod
    def legal(rules, state, frame, mask) -> None:
        rules.layout.allow(mask, "cling")
        rules.layout.allow(mask, "pass")

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        state.stack.pop()
        if segment == "cling":
            reloc = _relocation_below(state)
            q, b = frame["player"], frame["amoeba"]
            reloc["followers"] = reloc["followers"] + ((q, b),)
            if rules.config.holding_tentacle and _may_take(rules, state, q, reloc):
                state.stack.append(
                    {"kind": "tentacle", "player": q, "amoeba": b, "space": frame["space"],
                     "dest": frame["dest"], "mover_player": frame["mover_player"],
                     "mover_amoeba": frame["mover_amoeba"]}
                )
