"""The fast path of the Primordial Soup encoders: the reference's features at precomputed
positions.

:class:`Filler` writes the same vector as :func:`~primeval.envs.primordial_soup.
encoders_reference.observe` (``tests/envs/primordial_soup/test_encoders_reference.py`` proves it
along random games), but lists the writes in plain Python lists and stores them with a few
numpy operations: encoding runs on every agent step, and on these short lists that is much
cheaper than many small numpy calls. The stores are

* the offsets set to 1 (one-hots and flags);
* offsets with their values (the frame's numbers, amoebas and damage per space);
* the *dense* values, those always written (BP, the cubes on each space, ...): ``fill`` lists
  them in the order of :data:`_PLAYER_DENSE` and :data:`_TABLE_DENSE`, and their offsets and
  divisors (the features' :attr:`~SoupFeatures.scale`), which depend only on the player count
  and the observer, are looked up by those names once (:meth:`Filler._build_layout`).

Adding a feature: declare it in ``encoders_features``, write it in the reference, and here
either append its offsets (one-hots, sparse values) or, for a dense value, list it in the
fill *and* name it, at the same place, in ``_PLAYER_DENSE`` or ``_TABLE_DENSE``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from primeval.envs.primordial_soup.data import DRIFTS, GENE_INDEX, NUM_GENES
from primeval.envs.primordial_soup.encoders_features import (
    ATTACK_KINDS,
    DECISION_KINDS,
    FRAME_FLAGS,
    MAX_AMOEBAS,
    MAX_DICE,
    MOVE_MODES,
    RELOCATION_DECISIONS,
    SoupFeatures,
)
from primeval.envs.primordial_soup.state import PHASES, GameState

__all__ = ["Filler"]

_DECISION_INDEX = {k: i for i, k in enumerate(DECISION_KINDS)}
_PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}
_FLAG_INDEX = {name: i for i, name in enumerate(FRAME_FLAGS)}
#: Fields of most frames; a frame with no others needs no further look-ups.
_ACTOR_FIELDS = frozenset({"kind", "player", "amoeba"})

#: Dense values of each player (absolute seat order), in the order ``fill`` lists them:
#: one per piece, then the ``amoeba_*`` rows (one per amoeba number).
_PLAYER_DENSE: tuple[str, ...] = (
    "bp", "score", "in_finish_zone", "mutation_points", "aggression_used", "amoebas_on_board",
    "amoeba_done", "amoeba_damage",
)
#: Dense values of the table, in the order ``fill`` lists them after the players': the cubes
#: (``state.cubes[space][colour]``), the cube supply (by colour), then every entry of the others.
_TABLE_DENSE: tuple[str, ...] = (
    "cubes", "cube_supply", "gene_supply", "ozone", "deck_size", "round", "deck_drifts",
)


class _SlotOffsets(NamedTuple):
    """Where the rows of one relative seat start in the vector."""

    genes: int
    genes_new: int
    amoeba_at: list[int]  # start of the channel of each amoeba number
    amoebas: int
    damage: int


class _SeatLayout(NamedTuple):
    """Offsets for one (player count, observer) pair."""

    slots: tuple[_SlotOffsets, ...]  # by absolute seat
    seat_present: list[int]
    dense_index: np.ndarray  # where each dense value listed by ``Filler.fill`` goes ...
    dense_divisor: np.ndarray  # ... and what it is divided by


class Filler:
    """Writes the features of one (state, seat) into a zeroed ``features.features`` vector.

    Args:
        features: The features to write.
    """

    def __init__(self, features: SoupFeatures) -> None:
        self.f = f = features
        self.num_spaces = f.num_spaces
        self._offset = {p.name: p.offset for p in f.features.pieces}
        self._shape = {p.name: p.shape for p in f.features.pieces}
        # Per gene key: index and mutation points.
        self._gene = {key: (i, f.gene_mp[i]) for key, i in GENE_INDEX.items()}
        self._layouts: dict[tuple[int, int], _SeatLayout] = {}

    # Layout ----------------------------------------------------------------------------------

    def _layout(self, n: int, seat: int) -> _SeatLayout:
        """The offsets of an ``n``-player game seen by ``seat`` (built once, then cached)."""
        layout = self._layouts.get((n, seat))
        if layout is None:
            layout = self._layouts[n, seat] = self._build_layout(n, seat)
        return layout

    def _build_layout(self, n: int, seat: int) -> _SeatLayout:
        """Per-seat row offsets, and where the dense values go in the order ``fill`` lists them."""
        at, spaces, scale = self._offset, self.num_spaces, self.f.scale
        slot = [(p - seat) % n for p in range(n)]  # absolute seat (or colour) -> relative slot
        amoebas = range(self.f.num_amoebas)
        slots = tuple(
            _SlotOffsets(
                genes=at["genes"] + k * NUM_GENES,
                genes_new=at["genes_new"] + k * NUM_GENES,
                amoeba_at=[at["amoeba_at"] + (k * MAX_AMOEBAS + i) * spaces for i in amoebas],
                amoebas=at["amoebas"] + k * spaces,
                damage=at["damage"] + k * spaces,
            )
            for k in slot
        )
        index: list[int] = []
        divisor: list[float] = []

        def dense(name: str, offsets: list[int] | range) -> None:
            index.extend(offsets)
            divisor.extend([scale.get(name, 1.0)] * len(offsets))

        for k in slot:
            for name in _PLAYER_DENSE:
                shape = self._shape[name]
                if len(shape) == 1:  # one value per seat
                    dense(name, [at[name] + k])
                else:  # one per amoeba number
                    dense(name, [at[name] + k * shape[1] + i for i in amoebas])
        for name in _TABLE_DENSE:
            if name == "cubes":
                for space in range(spaces):
                    dense(name, [at["cubes"] + k * spaces + space for k in slot])
            elif name == "cube_supply":
                dense(name, [at[name] + k for k in slot])
            else:
                dense(name, range(at[name], at[name] + int(np.prod(self._shape[name]))))
        return _SeatLayout(
            slots=slots,
            seat_present=list(range(at["seat_present"], at["seat_present"] + n)),
            dense_index=np.array(index, dtype=np.intp),
            dense_divisor=np.array(divisor, dtype=np.float64),
        )

    # Filling ---------------------------------------------------------------------------------

    def fill(self, out: np.ndarray, state: GameState, seat: int) -> None:
        """Writes every feature of ``state`` seen by ``seat`` into the zeroed vector ``out``."""
        n = state.num_players
        if not 0 <= seat < n:
            raise ValueError(f"seat {seat} is out of range for {n} players")
        f = self.f
        layout = self._layout(n, seat)
        at = self._offset
        ones = list(layout.seat_present)  # offsets set to 1
        index: list[int] = []  # offsets set to the matching entry of ``values``
        values: list[float] = []
        dense: list[float] = []  # values for layout.dense_index, before the dense_divisor

        # Decision context ------------------------------------------------------------------
        phase = _PHASE_INDEX.get(state.phase)
        if phase is not None:
            ones.append(at["phase"] + phase)
        frame = state.stack[-1] if state.stack else None
        kind = frame.get("kind") if frame is not None else None
        if kind in _DECISION_INDEX:
            assert frame is not None
            ones.append(at["decision"] + _DECISION_INDEX[kind])
            self._fill_frame(ones, index, values, state, frame, seat, n)
        else:
            ones.append(at["decision"] + len(DECISION_KINDS))

        # Players (by absolute seat; the layout maps each to its relative slot) -------------
        fzs = f.config.finish_zone_start
        rnd = state.round
        damage_scale = f.scale["damage"]
        gene = self._gene
        per_amoeba = 1.0 / f.scale["amoebas"]
        for ps, (genes_at, genes_new_at, amoeba_at, amoebas_at, damage_at) in zip(
            state.players, layout.slots, strict=True
        ):
            mp = 0
            for key, acquired in ps.genes.items():
                i, gene_mp = gene[key]
                ones.append(genes_at + i)
                mp += gene_mp
                if acquired == rnd:
                    ones.append(genes_new_at + i)
            on_board = 0
            seen: dict[int, int] = {}  # space -> where its ``amoebas`` value is in ``values``
            amoebas = zip(amoeba_at, ps.amoeba_space, ps.amoeba_damage, strict=True)
            for at_row, space, damage in amoebas:
                if space < 0:
                    continue
                on_board += 1
                ones.append(at_row + space)
                damage /= damage_scale
                if space in seen:  # another amoeba of this colour here: add it (in float32)
                    pos = seen[space]
                    values[pos] += per_amoeba
                    values[pos + 1] = float(np.float32(values[pos + 1]) + np.float32(damage))
                else:
                    seen[space] = len(values)
                    index += (amoebas_at + space, damage_at + space)
                    values += (per_amoeba, damage)
            # In the order of _PLAYER_DENSE
            dense += (ps.bp, ps.score, ps.score >= fzs, max(mp, 0), ps.aggression_used, on_board)
            dense += ps.amoeba_done
            dense += ps.amoeba_damage  # 0 when off the board

        # The table, in the order of _TABLE_DENSE -------------------------------------------
        for row in state.cubes:
            dense += row
        dense += state.supply
        dense += state.gene_supply
        card = state.environment_card
        ozone = 0.0
        if 0 <= card < f.deck_len:
            ones.append(at["drift"] + f.card_drift[card])
            ozone = f.card_ozone[card]
        deck = state.environment_deck
        drifts = [0] * len(DRIFTS)  # cards left per drift
        for c in deck:
            drifts[f.card_drift[c]] += 1
        dense += (ozone, len(deck), rnd)
        dense += [f.deck_drift_share[count] for count in drifts]
        for d, face in enumerate(state.dice[:MAX_DICE]):
            if 1 <= face <= 6:
                ones.append(at["dice"] + 6 * d + face - 1)

        # Store (dense values are divided in float64, then rounded once to float32).
        out[layout.dense_index] = np.array(dense, dtype=np.float64) / layout.dense_divisor
        out[np.array(index, dtype=np.intp)] = values
        out[np.array(ones, dtype=np.intp)] = 1.0

    def _fill_frame(
        self,
        ones: list[int],
        index: list[int],
        values: list[float],
        state: GameState,
        frame: dict[str, Any],
        seat: int,
        n: int,
    ) -> None:
        at, scale = self._offset, self.f.scale
        player = frame.get("player", -1)
        if 0 <= player < n:
            if player == seat:
                ones.append(at["to_act"])
            ones.append(at["actor"] + (player - seat) % n)
            amoeba = frame.get("amoeba", -1)
            if 0 <= amoeba < MAX_AMOEBAS:
                ones.append(at["acting_amoeba"] + amoeba)
                space = state.players[player].amoeba_space[amoeba]
                if space >= 0:
                    ones.append(at["acting_space"] + space)
        if frame["kind"] in RELOCATION_DECISIONS:
            for fr in reversed(state.stack):
                if fr.get("kind") == "relocate":
                    for colour, count in enumerate(fr.get("carry") or ()):
                        if count:
                            index.append(at["carried_cubes"] + (colour - seat) % n)
                            values.append(count / scale["carried_cubes"])
                    break
        if frame.keys() <= _ACTOR_FIELDS:
            return
        mode = frame.get("mode")
        if mode in MOVE_MODES:
            ones.append(at["move_mode"] + MOVE_MODES.index(mode))
        step = frame.get("step")
        if step in (1, 2):
            ones.append(at["move_step"] + step - 1)
        allowed = frame.get("allowed")
        if allowed:
            ones += [at["allowed_directions"] + d for d in allowed]
        other = frame.get("attacker_player", frame.get("mover_player", -1))
        if 0 <= other < n:
            ones.append(at["other_player"] + (other - seat) % n)
        mover_amoeba = frame.get("mover_amoeba", -1)
        if 0 <= mover_amoeba < MAX_AMOEBAS:
            ones.append(at["other_amoeba"] + mover_amoeba)
        attack = frame.get("attack_kind")
        if attack in ATTACK_KINDS:
            ones.append(at["attack_kind"] + ATTACK_KINDS.index(attack))
        for name in frame.keys() & _FLAG_INDEX.keys():
            if frame[name]:
                ones.append(at["frame_flags"] + _FLAG_INDEX[name])
        if "remaining" in frame:
            index.append(at["defect_remaining"])
            values.append(max(frame["remaining"], 0) / scale["defect_remaining"])
        meal = frame.get("meal")
        if meal:
            meal = meal[:3]
            index += range(at["meal"], at["meal"] + len(meal))
            values += [m / scale["meal"] for m in meal]
        if "damage" in frame:
            index.append(at["start_damage"])
            values.append(frame["damage"] / scale["start_damage"])
        space = frame.get("space", -1)
        if 0 <= space < self.num_spaces:
            ones.append(at["frame_space"] + space)
        dest = frame.get("dest", -1)
        if 0 <= dest < self.num_spaces:
            ones.append(at["frame_dest"] + dest)
