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

from typing import Any

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


class _Filler:
    """Writes the features of one (state, seat) into preallocated named views.

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
        self.damage_scale = float(max(config.death_damage, config.death_damage_longevity))
        self.deck_len = len(config.environment_deck)
        self._gene_mp = np.array([g.mp for g in GENES], dtype=np.int64)
        self._deck_drift = np.array(
            [_DRIFT_INDEX[d] for d, _ in config.environment_deck], dtype=np.int64
        )
        self._deck_ozone = np.array([o for _, o in config.environment_deck], dtype=np.float32)
        self._max_copies = float(max(max(g.copies_3p, g.copies_4p) for g in GENES))

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

    # Filling ---------------------------------------------------------------------------------

    def fill(
        self,
        g: dict[str, np.ndarray],
        sp: dict[str, np.ndarray],
        state: GameState,
        seat: int,
    ) -> None:
        """Writes every feature of ``state`` seen by ``seat`` into zeroed views ``g``/``sp``."""
        n = state.num_players
        if not 0 <= seat < n:
            raise ValueError(f"seat {seat} is out of range for {n} players")
        order = [(seat + k) % n for k in range(n)]  # relative slot -> absolute seat

        # Decision context ------------------------------------------------------------------
        phase = _PHASE_INDEX.get(state.phase)
        if phase is not None:
            g["phase"][phase] = 1.0
        frame = state.stack[-1] if state.stack else None
        kind = frame.get("kind") if frame is not None else None
        if kind in _DECISION_INDEX:
            assert frame is not None
            g["decision"][_DECISION_INDEX[kind]] = 1.0
            self._fill_frame(g, sp, state, frame, seat, n)
        else:
            g["decision"][len(DECISION_KINDS)] = 1.0

        # Players ---------------------------------------------------------------------------
        fzs = self.config.finish_zone_start
        rnd = state.round
        for k, p in enumerate(order):
            ps = state.players[p]
            g["seat_present"][k] = 1.0
            g["bp"][k] = ps.bp / BP_SCALE
            g["score"][k] = ps.score / SCORE_SCALE
            g["in_finish_zone"][k] = ps.score >= fzs
            genes, genes_new = g["genes"][k], g["genes_new"][k]
            mp = 0
            for key, acquired in ps.genes.items():
                i = GENE_INDEX[key]
                genes[i] = 1.0
                mp += self._gene_mp[i]
                if acquired == rnd:
                    genes_new[i] = 1.0
            g["mutation_points"][k] = max(mp, 0) / MP_SCALE
            g["aggression_used"][k] = ps.aggression_used
            damage_row, done_row = g["amoeba_damage"][k], g["amoeba_done"][k]
            amoeba_at = sp["amoeba_at"]
            count_row, space_damage = sp["amoebas"][k], sp["damage"][k]
            on_board = 0
            for i, space in enumerate(ps.amoeba_space[:MAX_AMOEBAS]):
                if ps.amoeba_done[i]:
                    done_row[i] = 1.0
                if space < 0:
                    continue
                on_board += 1
                damage = ps.amoeba_damage[i] / self.damage_scale
                damage_row[i] = damage
                amoeba_at[k * MAX_AMOEBAS + i, space] = 1.0
                count_row[space] += 1.0 / AMOEBA_COUNT_SCALE
                space_damage[space] += damage
            g["amoebas_on_board"][k] = on_board / MAX_AMOEBAS

        # Soup and supply -------------------------------------------------------------------
        cubes = np.asarray(state.cubes, dtype=np.float32)  # (spaces, colours)
        sp["cubes"][:n] = cubes[:, order].T / CUBE_SCALE
        supply = np.asarray(state.supply, dtype=np.float32)
        g["cube_supply"][:n] = supply[order] / float(self.config.cubes_per_colour)
        g["gene_supply"][:] = np.asarray(state.gene_supply, dtype=np.float32) / self._max_copies

        # Environment -----------------------------------------------------------------------
        card = state.environment_card
        if 0 <= card < self.deck_len:
            g["drift"][self._deck_drift[card]] = 1.0
            g["ozone"][0] = self._deck_ozone[card] / OZONE_SCALE
        deck = state.environment_deck
        g["deck_size"][0] = len(deck) / self.deck_len
        if deck:
            np.add.at(g["deck_drifts"], self._deck_drift[deck], 1.0 / self.deck_len)
        g["round"][0] = rnd / ROUND_SCALE
        dice = g["dice"]
        for d, face in enumerate(state.dice[:MAX_DICE]):
            if 1 <= face <= 6:
                dice[d, face - 1] = 1.0

    def _fill_frame(
        self,
        g: dict[str, np.ndarray],
        sp: dict[str, np.ndarray],
        state: GameState,
        frame: dict[str, Any],
        seat: int,
        n: int,
    ) -> None:
        player = frame.get("player", -1)
        if 0 <= player < n:
            g["to_act"][0] = player == seat
            g["actor"][(player - seat) % n] = 1.0
            amoeba = frame.get("amoeba", -1)
            if 0 <= amoeba < MAX_AMOEBAS:
                g["acting_amoeba"][amoeba] = 1.0
                space = state.players[player].amoeba_space[amoeba]
                if space >= 0:
                    sp["acting_space"][0, space] = 1.0
        mode = frame.get("mode")
        if mode in MOVE_MODES:
            g["move_mode"][MOVE_MODES.index(mode)] = 1.0
        step = frame.get("step")
        if step in (1, 2):
            g["move_step"][step - 1] = 1.0
        allowed = frame.get("allowed")
        if allowed:
            g["allowed_directions"][list(allowed)] = 1.0
        other = frame.get("attacker_player", frame.get("mover_player", -1))
        if 0 <= other < n:
            g["other_player"][(other - seat) % n] = 1.0
        mover_amoeba = frame.get("mover_amoeba", -1)
        if 0 <= mover_amoeba < MAX_AMOEBAS:
            g["other_amoeba"][mover_amoeba] = 1.0
        attack = frame.get("attack_kind")
        if attack in ATTACK_KINDS:
            g["attack_kind"][ATTACK_KINDS.index(attack)] = 1.0
        flags = g["frame_flags"]
        for i, name in enumerate(FRAME_FLAGS):
            if frame.get(name):
                flags[i] = 1.0
        if "remaining" in frame:
            g["defect_remaining"][0] = max(frame["remaining"], 0) / MP_SCALE
        meal = frame.get("meal")
        if meal:
            meal = meal[:3]
            g["meal"][: len(meal)] = np.asarray(meal, dtype=np.float32) / MEAL_SCALE
        if "damage" in frame:
            g["start_damage"][0] = frame["damage"] / self.damage_scale
        space = frame.get("space", -1)
        if 0 <= space < self.num_spaces:
            sp["frame_space"][0, space] = 1.0
        dest = frame.get("dest", -1)
        if 0 <= dest < self.num_spaces:
            sp["frame_dest"][0, dest] = 1.0


def _views(features: FeatureBuilder, out: np.ndarray) -> dict[str, np.ndarray]:
    return {name: features.view(out, name) for name in features.names}


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
        gfb, sfb = self._filler.global_features, self._filler.spatial_features
        self.features = FeatureBuilder(
            [(p.name, p.shape, p.description) for p in gfb.pieces + sfb.pieces]
        )
        self.pieces: dict[str, slice] = {n: self.features.slice(n) for n in self.features.names}
        self._out = self.features.zeros()
        self._g = _views(gfb, self._out[: gfb.size])
        self._sp = _views(sfb, self._out[gfb.size :])
        self._high = np.concatenate([self._filler.global_high(), self._filler.spatial_high()])
        self._space = spaces.Box(
            low=np.zeros_like(self._high), high=self._high.copy(), dtype=np.float32
        )

    def space(self) -> spaces.Box:
        """``Box(0, high, (size,), float32)`` with per-feature upper bounds."""
        return self._space

    def encode(self, state: GameState, seat: int) -> np.ndarray:
        """The vector ``seat`` observes in ``state`` (a fresh array)."""
        self._out.fill(0.0)
        self._filler.fill(self._g, self._sp, state, seat)
        np.minimum(self._out, self._high, out=self._out)
        return self._out.copy()

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
        gfb, sfb = f.global_features, f.spatial_features
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
        self._g = gfb.zeros()
        self._sp = sfb.zeros()
        self._g_views = _views(gfb, self._g)
        self._sp_views = _views(sfb, self._sp)
        self._sp_grid = self._sp.reshape(-1, f.num_spaces)
        self._xs = np.array([x for x, _ in board.cells], dtype=np.intp)
        self._ys = np.array([y for _, y in board.cells], dtype=np.intp)
        shape = (len(channels), self.height, self.width)
        self._out = np.zeros(shape, dtype=np.float32)
        self._static = np.zeros((2, self.height, self.width), dtype=np.float32)
        self._static[0, self._ys, self._xs] = 1.0
        ix, iy = board.island
        self._static[1, iy, ix] = 1.0
        high = np.ones(shape, dtype=np.float32)
        high[self._spatial_start : self._global_start] = (
            f.spatial_high().reshape(-1, f.num_spaces).max(axis=1)[:, None, None]
        )
        high[self._global_start :] = f.global_high()[:, None, None]
        self._high = high
        self._space = spaces.Box(low=np.zeros_like(high), high=high.copy(), dtype=np.float32)

    def space(self) -> spaces.Box:
        """``Box(0, high, (C, H, W), float32)`` with per-channel upper bounds."""
        return self._space

    def encode(self, state: GameState, seat: int) -> np.ndarray:
        """The planes ``seat`` observes in ``state`` (a fresh array)."""
        self._g.fill(0.0)
        self._sp.fill(0.0)
        self._filler.fill(self._g_views, self._sp_views, state, seat)
        out = self._out
        out[: self._spatial_start] = self._static
        spatial = out[self._spatial_start : self._global_start]
        spatial.fill(0.0)
        spatial[:, self._ys, self._xs] = self._sp_grid
        out[self._global_start :] = self._g[:, None, None]
        np.minimum(out, self._high, out=out)
        return out.copy()

    def channel(self, obs: np.ndarray, name: str) -> np.ndarray:
        """The planes of piece or channel ``name`` in an observation."""
        if name in self.channel_slices:
            return obs[self.channel_slices[name]]
        return obs[self.channels.index(name)]


#: Encoder classes by ``obs_encoder`` name.
ENCODERS: dict[str, type] = {"flat": FlatEncoder, "planes": PlanesEncoder}
