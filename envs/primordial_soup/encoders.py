"""Observation encoders of Primordial Soup: ``"flat"`` (a named vector) and ``"planes"`` (grid).

Both encoders are ego-centric: seats are ordered *me first, then in turn order* (relative seat
``k`` is the absolute seat ``(seat + k) % n``), and food-cube colours are relative in the same
way (player ``p`` plays colour ``p``). In a 3-player game the fourth slot is all zeros
(``seat_present`` says which slots hold a player). Everything in Primordial Soup is public
except the order of the environment deck, which is never encoded (only its size and the drifts
still in it).

Both carry the same information:

* **decision context**: the phase, the kind of the pending decision (``"none"`` while no
  player is to decide), whether the observer is the one to act, the relative seat that acts,
  the acting amoeba (number and space) and the other fields of the decision frame;
* **players** (per relative seat): BP, ladder score, genes held, genes acquired this round
  (advanced genes may only replace genes held since an earlier round), mutation points,
  amoebas on the board, Aggression used, and per amoeba number its damage and whether it has
  had its phase-1 turn;
* **soup** (per space): food cubes per relative colour, amoebas per relative seat, each
  amoeba's position by number, damage per relative seat;
* **table**: cube supply, gene supply, the environment card (drift, ozone), the deck, the
  round and the last dice.

Values are float32 scaled to about 0..1 (counts divided by the ``*_SCALE`` constants below).
The space's upper bounds are derived from the config so an observation can never leave it;
``encode`` also clips to them as a guard.

The features are defined once as named pieces in two groups: *global* pieces (a vector) and
*spatial* pieces shaped ``(channels, num_spaces)``. ``"flat"`` concatenates both groups into
one vector (see :attr:`FlatEncoder.features` / :attr:`FlatEncoder.pieces`); ``"planes"``
scatters each spatial channel onto the board grid and broadcasts every global feature as a
constant plane (see :attr:`PlanesEncoder.channels`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from gymnasium import spaces

from primeval.envs.core.encoders import FeatureBuilder
from primeval.envs.primordial_soup.data import DIRECTIONS, DRIFTS, GENE_INDEX, GENES, NUM_GENES
from primeval.envs.primordial_soup.state import PHASES, GameState

__all__ = [
    "DECISION_KINDS",
    "ENCODERS",
    "FRAME_FLAGS",
    "GLOBAL_PIECES",
    "SPATIAL_PIECES",
    "FlatEncoder",
    "PlanesEncoder",
]

#: Kinds of procedure frame on which a player decides (any other kind is an automatic step).
DECISION_KINDS: tuple[str, ...] = (
    "start_space",
    "place_start",
    "move",
    "direction",
    "move_again",
    "tentacle",
    "cling",
    "feed",
    "parasite_host",
    "defend",
    "retry",
    "defect",
    "buy",
    "divide",
    "aggression",
)
_DECISION_INDEX = {k: i for i, k in enumerate(DECISION_KINDS)}
_PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}
_DRIFT_INDEX = {d: i for i, d in enumerate(DRIFTS)}

#: Boolean frame fields, in the order of the ``frame_flags`` piece.
FRAME_FLAGS: tuple[str, ...] = (
    "free_used",  # divide: the free amoeba (0 amoebas on the board) was placed
    "struggle_used",  # feed: this amoeba already attacked with Struggle
    "escape_used",  # defend: Escape already used against this attack
    "defense_used",  # defend: Defense already used against this attack
    "optional",  # parasite_host: the meal can also be eaten without a host
)
#: Values of ``mode`` ("direction", "move_again") and ``attack_kind`` ("defend", "retry").
MOVE_MODES: tuple[str, ...] = ("turn", "escape")
ATTACK_KINDS: tuple[str, ...] = ("struggle", "aggression")
_FLAG_INDEX = {name: i for i, name in enumerate(FRAME_FLAGS)}
#: Fields of most frames; a frame with no others needs no further look-ups.
_ACTOR_FIELDS = frozenset({"kind", "player", "amoeba"})

MAX_PLAYERS = 4
MAX_AMOEBAS = 7
MAX_DICE = 2

BP_SCALE = 20.0
SCORE_SCALE = 50.0
CUBE_SCALE = 10.0
MP_SCALE = 20.0
OZONE_SCALE = 20.0
ROUND_SCALE = 10.0
MEAL_SCALE = 4.0
AMOEBA_COUNT_SCALE = 2.0  # amoebas of one colour on one space

#: Global pieces: ``(name, shape, description)``; shapes use the padded sizes above.
GLOBAL_PIECES: tuple[tuple[str, int | tuple[int, ...], str], ...] = (
    ("phase", len(PHASES), "one-hot of state.phase (PHASES order)"),
    ("decision", len(DECISION_KINDS) + 1, "one-hot of the pending decision kind; last = none"),
    ("to_act", 1, "1 when the observer is the one to decide"),
    ("actor", MAX_PLAYERS, "relative seat of the deciding player"),
    ("acting_amoeba", MAX_AMOEBAS, "number (index) of the frame's amoeba, owned by the actor"),
    ("move_mode", len(MOVE_MODES), "direction/move_again: turn or escape move"),
    ("move_step", 2, "direction: first or second (Speed) move"),
    ("allowed_directions", len(DIRECTIONS), "direction: allowed W, N, E, S, stay"),
    ("other_player", MAX_PLAYERS, "relative seat of the attacker (defend) or mover (cling)"),
    ("other_amoeba", MAX_AMOEBAS, "cling: number of the moving amoeba"),
    ("attack_kind", len(ATTACK_KINDS), "defend/retry: struggle or aggression"),
    ("frame_flags", len(FRAME_FLAGS), "boolean frame fields, FRAME_FLAGS order"),
    ("defect_remaining", 1, "defect: mutation points still to pay / MP_SCALE"),
    ("meal", 3, "parasite_host: the meal over relative foreign colours +1..+3 / MEAL_SCALE"),
    ("start_damage", 1, "place_start: damage of the start amoeba / damage scale"),
    ("seat_present", MAX_PLAYERS, "1 for relative seats that hold a player"),
    ("bp", MAX_PLAYERS, "biological points / BP_SCALE"),
    ("score", MAX_PLAYERS, "ladder space / SCORE_SCALE"),
    ("in_finish_zone", MAX_PLAYERS, "marker in the finish zone"),
    ("genes", (MAX_PLAYERS, NUM_GENES), "genes held (data.GENES order)"),
    ("genes_new", (MAX_PLAYERS, NUM_GENES), "genes acquired this round"),
    ("mutation_points", MAX_PLAYERS, "MP sum (Ray Protection -2, floored at 0) / MP_SCALE"),
    ("amoebas_on_board", MAX_PLAYERS, "amoebas on the board / 7"),
    ("aggression_used", MAX_PLAYERS, "Aggression used this round"),
    ("amoeba_damage", (MAX_PLAYERS, MAX_AMOEBAS), "damage per amoeba / damage scale"),
    ("amoeba_done", (MAX_PLAYERS, MAX_AMOEBAS), "amoeba has had its phase-1 turn"),
    ("cube_supply", MAX_PLAYERS, "cubes of each relative colour in the supply / per colour"),
    ("gene_supply", NUM_GENES, "gene cards in the supply / 2"),
    ("drift", len(DRIFTS), "environment card drift: W, N, E, S, none"),
    ("ozone", 1, "environment card ozone / OZONE_SCALE"),
    ("deck_size", 1, "environment cards not yet turned / deck length"),
    ("deck_drifts", len(DRIFTS), "drifts of the cards not yet turned / deck length"),
    ("round", 1, "round / ROUND_SCALE"),
    ("dice", (MAX_DICE, 6), "one-hot faces of the last dice rolled"),
)

#: Spatial pieces: ``(name, channels, description)``; each is shaped ``(channels, spaces)``.
SPATIAL_PIECES: tuple[tuple[str, int, str], ...] = (
    ("cubes", MAX_PLAYERS, "food cubes per relative colour / CUBE_SCALE"),
    ("amoebas", MAX_PLAYERS, "amoebas per relative seat / AMOEBA_COUNT_SCALE"),
    ("amoeba_at", MAX_PLAYERS * MAX_AMOEBAS, "amoeba (relative seat, number) is here"),
    ("damage", MAX_PLAYERS, "damage of each relative seat's amoebas here / damage scale"),
    ("acting_space", 1, "space of the frame's amoeba"),
    ("frame_space", 1, "the frame's space (tentacle/cling: left, defend/retry: attack)"),
    ("frame_dest", 1, "the frame's destination (tentacle/cling)"),
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
    dense_index: np.ndarray  # where each dense value listed by ``_Filler.fill`` goes ...
    dense_divisor: np.ndarray  # ... and what it is divided by


#: Per-player dense values, in the order ``_Filler.fill`` lists them, with their divisors
#: (then come the player's ``amoeba_done`` and ``amoeba_damage`` rows).
_PLAYER_VALUES: tuple[tuple[str, float], ...] = (
    ("bp", BP_SCALE),
    ("score", SCORE_SCALE),
    ("in_finish_zone", 1.0),
    ("mutation_points", MP_SCALE),
    ("aggression_used", 1.0),
    ("amoebas_on_board", float(MAX_AMOEBAS)),
)


class _Filler:
    """Writes the features of one (state, seat) into a zeroed vector: global, then spatial pieces.

    ``fill`` first lists the writes in plain Python lists, then stores them with a few numpy
    operations: offsets set to 1, offsets with their values, and the *dense* values (those
    always written, like BP or the cubes on each space), whose offsets and divisors depend only
    on the player count and the observer (see :meth:`_build_layout`).

    Args:
        rules: Anything with ``.config`` (a ``PrimordialSoupConfig``) and ``.num_players``.
    """

    def __init__(self, rules: Any) -> None:
        config = rules.config
        self.config = config
        self.num_players = int(getattr(rules, "num_players", config.num_players))
        self.board = config.board
        self.num_spaces = self.board.num_spaces
        self.global_features = FeatureBuilder(GLOBAL_PIECES)
        self.spatial_features = FeatureBuilder(
            [(name, (channels, self.num_spaces), text) for name, channels, text in SPATIAL_PIECES]
        )
        #: Both groups in one vector (the ``"flat"`` layout).
        self.features = FeatureBuilder(
            [
                (p.name, p.shape, p.description)
                for p in self.global_features.pieces + self.spatial_features.pieces
            ]
        )
        self._offset = {p.name: p.offset for p in self.features.pieces}
        self.damage_scale = float(max(config.death_damage, config.death_damage_longevity))
        self.num_amoebas = min(config.max_amoebas, MAX_AMOEBAS)
        self.deck_len = len(config.environment_deck)
        self._gene_mp = np.array([g.mp for g in GENES], dtype=np.int64)
        self._deck_drift = np.array(
            [_DRIFT_INDEX[d] for d, _ in config.environment_deck], dtype=np.int64
        )
        self._deck_ozone = np.array([o for _, o in config.environment_deck], dtype=np.float32)
        self._max_copies = float(max(max(g.copies_3p, g.copies_4p) for g in GENES))
        # Per gene key: index and mutation points; per environment card: drift and ozone value.
        self._gene = {key: (i, int(self._gene_mp[i])) for key, i in GENE_INDEX.items()}
        self._card_drift = [int(d) for d in self._deck_drift]
        self._card_ozone = [float(o) for o in self._deck_ozone / OZONE_SCALE]
        # deck_drifts[d] by the number of cards of drift d left: 1 / deck_len added per card
        # and rounded to float32 each time (as the value was built card by card).
        share = 0.0
        self._drift_share = [share]
        for _ in range(self.deck_len):
            share = float(np.float32(share + 1.0 / self.deck_len))
            self._drift_share.append(share)
        self._layouts: dict[tuple[int, int], _SeatLayout] = {}

    # Bounds ----------------------------------------------------------------------------------

    def global_high(self) -> np.ndarray:
        """Upper bounds of the global vector (lower bounds are all 0)."""
        c = self.config
        fb = self.global_features
        high = fb.zeros() + 1.0
        bp_max = c.start_bp + c.income_bp * (c.max_rounds + 1)
        fb.write(high, "bp", max(1.0, bp_max / BP_SCALE))
        # Markers start below the finish zone; the last round adds at most 10 spaces plus one
        # per marker leapt over. Generous margin: the encode step clips anyway.
        score_max = max(c.finish_zone_start + 10 + MAX_PLAYERS, 4 + 13 * c.max_rounds)
        fb.write(high, "score", max(1.0, score_max / SCORE_SCALE))
        mp_max = float(self._gene_mp[self._gene_mp > 0].sum())
        fb.write(high, "mutation_points", max(1.0, mp_max / MP_SCALE))
        fb.write(high, "defect_remaining", max(1.0, mp_max / MP_SCALE))
        fb.write(high, "start_damage", max(1.0, (c.start_damage + 1) / self.damage_scale))
        fb.write(high, "amoeba_damage", max(1.0, (self.damage_scale + 1) / self.damage_scale))
        fb.write(high, "ozone", max(1.0, float(self._deck_ozone.max()) / OZONE_SCALE))
        fb.write(high, "round", max(1.0, (c.max_rounds + 1) / ROUND_SCALE))
        return high

    def spatial_high(self) -> np.ndarray:
        """Upper bounds of the spatial vector (lower bounds are all 0)."""
        c = self.config
        fb = self.spatial_features
        high = fb.zeros() + 1.0
        fb.write(high, "cubes", max(1.0, c.cubes_per_colour / CUBE_SCALE))
        fb.write(high, "amoebas", max(1.0, MAX_AMOEBAS / AMOEBA_COUNT_SCALE))
        damage_max = MAX_AMOEBAS * (self.damage_scale + 1) / self.damage_scale
        fb.write(high, "damage", damage_max)
        return high

    # Layout ----------------------------------------------------------------------------------

    def _layout(self, n: int, seat: int) -> _SeatLayout:
        """The offsets of an ``n``-player game seen by ``seat`` (built once, then cached)."""
        layout = self._layouts.get((n, seat))
        if layout is None:
            layout = self._layouts[n, seat] = self._build_layout(n, seat)
        return layout

    def _build_layout(self, n: int, seat: int) -> _SeatLayout:
        """Per-seat row offsets, and where the dense values go in the order ``fill`` lists them."""
        at, spaces = self._offset, self.num_spaces
        slot = [(p - seat) % n for p in range(n)]  # absolute seat -> relative slot
        amoebas = range(self.num_amoebas)
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
        for k in slot:
            for name, scale in _PLAYER_VALUES:
                index.append(at[name] + k)
                divisor.append(scale)
            index += [at["amoeba_done"] + k * MAX_AMOEBAS + i for i in amoebas]
            divisor += [1.0] * len(amoebas)
            index += [at["amoeba_damage"] + k * MAX_AMOEBAS + i for i in amoebas]
            divisor += [self.damage_scale] * len(amoebas)
        for space in range(spaces):  # state.cubes[space][colour]
            index += [at["cubes"] + k * spaces + space for k in slot]
            divisor += [CUBE_SCALE] * n
        index += [at["cube_supply"] + k for k in slot]
        divisor += [float(self.config.cubes_per_colour)] * n
        index += range(at["gene_supply"], at["gene_supply"] + NUM_GENES)
        divisor += [self._max_copies] * NUM_GENES
        index += [at["ozone"], at["deck_size"], at["round"]]
        divisor += [1.0, float(self.deck_len), ROUND_SCALE]
        index += range(at["deck_drifts"], at["deck_drifts"] + len(DRIFTS))
        divisor += [1.0] * len(DRIFTS)
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
        fzs = self.config.finish_zone_start
        rnd = state.round
        ds = self.damage_scale
        gene = self._gene
        half = 1.0 / AMOEBA_COUNT_SCALE
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
                damage /= ds
                if space in seen:  # another amoeba of this colour here: add it (in float32)
                    pos = seen[space]
                    values[pos] += half
                    values[pos + 1] = float(np.float32(values[pos + 1]) + np.float32(damage))
                else:
                    seen[space] = len(values)
                    index += (amoebas_at + space, damage_at + space)
                    values += (half, damage)
            dense += (ps.bp, ps.score, ps.score >= fzs, max(mp, 0), ps.aggression_used, on_board)
            dense += ps.amoeba_done
            dense += ps.amoeba_damage  # 0 when off the board

        # Soup and supply -------------------------------------------------------------------
        for row in state.cubes:
            dense += row
        dense += state.supply
        dense += state.gene_supply

        # Environment -----------------------------------------------------------------------
        card = state.environment_card
        ozone = 0.0
        if 0 <= card < self.deck_len:
            ones.append(at["drift"] + self._card_drift[card])
            ozone = self._card_ozone[card]
        deck = state.environment_deck
        drifts = [0] * len(DRIFTS)  # cards left per drift
        for c in deck:
            drifts[self._card_drift[c]] += 1
        dense += (ozone, len(deck), rnd)
        dense += [self._drift_share[count] for count in drifts]
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
        at = self._offset
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
            values.append(max(frame["remaining"], 0) / MP_SCALE)
        meal = frame.get("meal")
        if meal:
            meal = meal[:3]
            index += range(at["meal"], at["meal"] + len(meal))
            values += [m / MEAL_SCALE for m in meal]
        if "damage" in frame:
            index.append(at["start_damage"])
            values.append(frame["damage"] / self.damage_scale)
        space = frame.get("space", -1)
        if 0 <= space < self.num_spaces:
            ones.append(at["frame_space"] + space)
        dest = frame.get("dest", -1)
        if 0 <= dest < self.num_spaces:
            ones.append(at["frame_dest"] + dest)


class FlatEncoder:
    """``"flat"``: one float32 vector of named pieces (global pieces, then spatial ones).

    Spatial pieces are shaped ``(channels, num_spaces)`` inside the vector, e.g.
    ``encoder.view(obs, "cubes")[1, 7]`` is the cubes of the next player's colour on space 7.

    Attributes:
        name: ``"flat"``.
        features: The :class:`~primeval.envs.core.encoders.FeatureBuilder` of all pieces.
        pieces: Piece name -> slice of the vector.
    """

    name = "flat"

    def __init__(self, rules: Any) -> None:
        self._filler = _Filler(rules)
        self.features = self._filler.features
        self.pieces: dict[str, slice] = {n: self.features.slice(n) for n in self.features.names}
        self._high = np.concatenate([self._filler.global_high(), self._filler.spatial_high()])
        self._space = spaces.Box(
            low=np.zeros_like(self._high), high=self._high.copy(), dtype=np.float32
        )

    def space(self) -> spaces.Box:
        """``Box(0, high, (size,), float32)`` with per-feature upper bounds."""
        return self._space

    def encode(self, state: GameState, seat: int) -> np.ndarray:
        """The vector ``seat`` observes in ``state`` (a fresh array)."""
        out = self.features.zeros()
        self._filler.fill(out, state, seat)
        np.minimum(out, self._high, out=out)  # guard: never leave the space
        return out

    def view(self, obs: np.ndarray, name: str) -> np.ndarray:
        """Piece ``name`` of an observation, shaped like the piece."""
        return self.features.view(obs, name)


class PlanesEncoder:
    """``"planes"``: ``(C, H, W)`` float32 over the board grid (``board.cells[s] = (x, y)``).

    Channels, in order (see :attr:`channels` for every name):

    * ``valid``: 1 on soup spaces; ``island``: 1 on the island;
    * every spatial piece, one plane per channel, non-zero only on soup spaces:
      ``cubes[k]``, ``amoebas[k]``, ``amoeba_at[k,i]`` (relative seat ``k``, amoeba number
      ``i + 1``), ``damage[k]``, ``acting_space``, ``frame_space``, ``frame_dest``;
    * every global feature as a constant plane: ``phase[i]``, ``decision[i]``, ``to_act``,
      ..., ``bp[k]``, ``genes[k,g]``, ..., ``dice[d,f]`` (the flat encoder's global pieces).

    Attributes:
        name: ``"planes"``.
        channels: Channel names in order.
        channel_slices: Piece name (and ``valid``/``island``) -> slice of channels.
    """

    name = "planes"

    def __init__(self, rules: Any) -> None:
        self._filler = f = _Filler(rules)
        board = f.board
        self.height, self.width = board.height, board.width
        gfb = f.global_features
        channels: list[str] = ["valid", "island"]
        self.channel_slices: dict[str, slice] = {"valid": slice(0, 1), "island": slice(1, 2)}
        for name, count, _ in SPATIAL_PIECES:
            start = len(channels)
            if name == "amoeba_at":
                channels += [f"amoeba_at[{k},{i}]" for k in range(MAX_PLAYERS)
                             for i in range(MAX_AMOEBAS)]
            elif count == 1:
                channels.append(name)
            else:
                channels += [f"{name}[{c}]" for c in range(count)]
            self.channel_slices[name] = slice(start, len(channels))
        self._spatial_start = 2
        self._global_start = len(channels)
        for piece in gfb.pieces:
            start = len(channels)
            if piece.size == 1:
                channels.append(piece.name)
            else:
                for idx in np.ndindex(*piece.shape):
                    channels.append(f"{piece.name}[{','.join(str(i) for i in idx)}]")
            self.channel_slices[piece.name] = slice(start, len(channels))
        self.channels: tuple[str, ...] = tuple(channels)
        self._global_size = gfb.size
        self._vector = f.features.zeros()  # the flat features of the state being encoded
        shape = (len(channels), self.height, self.width)
        # The channels before the global ones, as far as they are the same in every state.
        self._static = np.zeros((self._global_start, self.height, self.width), dtype=np.float32)
        cells = np.array([y * self.width + x for x, y in board.cells], dtype=np.intp)
        self._static[0].flat[cells] = 1.0
        ix, iy = board.island
        self._static[1, iy, ix] = 1.0
        # Where each spatial feature (channel, space) goes in the flattened planes.
        plane = self.height * self.width
        channel_starts = np.arange(self._spatial_start, self._global_start) * plane
        self._spatial_cells = (channel_starts[:, None] + cells).ravel()
        high = np.ones(shape, dtype=np.float32)
        spatial_high = f.spatial_high().reshape(-1, f.num_spaces).max(axis=1)
        high[self._spatial_start : self._global_start] = spatial_high[:, None, None]
        high[self._global_start :] = f.global_high()[:, None, None]
        self._space = spaces.Box(low=np.zeros_like(high), high=high.copy(), dtype=np.float32)
        # The channel bounds as a flat vector: clipping it clips the planes made from it.
        self._vector_high = np.concatenate([f.global_high(), np.repeat(spatial_high, f.num_spaces)])

    def space(self) -> spaces.Box:
        """``Box(0, high, (C, H, W), float32)`` with per-channel upper bounds."""
        return self._space

    def encode(self, state: GameState, seat: int) -> np.ndarray:
        """The planes ``seat`` observes in ``state`` (a fresh array)."""
        vector = self._vector
        vector.fill(0.0)
        self._filler.fill(vector, state, seat)
        np.minimum(vector, self._vector_high, out=vector)  # guard: never leave the space
        out = np.empty((len(self.channels), self.height, self.width), dtype=np.float32)
        out[: self._global_start] = self._static
        out.reshape(-1)[self._spatial_cells] = vector[self._global_size :]
        out[self._global_start :] = vector[: self._global_size, None, None]  # constant planes
        return out

    def channel(self, obs: np.ndarray, name: str) -> np.ndarray:
        """The planes of piece or channel ``name`` in an observation."""
        if name in self.channel_slices:
            return obs[self.channel_slices[name]]
        return obs[self.channels.index(name)]


#: Encoder classes by ``obs_encoder`` name.
ENCODERS: dict[str, type] = {"flat": FlatEncoder, "planes": PlanesEncoder}
