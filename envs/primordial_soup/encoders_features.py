"""What every feature of a Primordial Soup observation is: its name, shape, scale and bound.

This module holds the definitions both ways of writing an observation read: the reference
(:mod:`~primeval.envs.primordial_soup.encoders_reference`, plain code writing each piece by
name) and the fast path (:mod:`~primeval.envs.primordial_soup.encoders_fast`, precomputed
positions) that the encoders in :mod:`~primeval.envs.primordial_soup.encoders` use.

Observations are ego-centric: seats are ordered *me first, then in turn order* (relative seat
``k`` is the absolute seat ``(seat + k) % n``), and food-cube colours are relative in the same
way (player ``p`` plays colour ``p``). In a 3-player game the fourth slot is all zeros
(``seat_present`` says which slots hold a player). Everything in Primordial Soup is public
except the order of the environment deck, which is never encoded (only its size and the drifts
still in it).

The features:

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

Values are float32 scaled to about 0..1: counts are divided by :attr:`SoupFeatures.scale`
(mostly the ``*_SCALE`` constants below). The upper bounds (:meth:`SoupFeatures.high`) are
derived from the config so an observation can never exceed them; encoders also clip to them as
a guard.

The features are named pieces in two groups: *global* pieces (a vector) and *spatial* pieces
shaped ``(channels, num_spaces)``. The ``"flat"`` encoder lays out both groups in one vector
(:attr:`SoupFeatures.features`); ``"planes"`` scatters each spatial channel onto the board grid
and broadcasts every global feature as a constant plane.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from primeval.envs.core.encoders import FeatureBuilder
from primeval.envs.primordial_soup.data import DIRECTIONS, DRIFTS, GENES, NUM_GENES
from primeval.envs.primordial_soup.state import PHASES

__all__ = [
    "AMOEBA_COUNT_SCALE",
    "ATTACK_KINDS",
    "BP_SCALE",
    "CUBE_SCALE",
    "DECISION_KINDS",
    "FRAME_FLAGS",
    "GLOBAL_PIECES",
    "MAX_AMOEBAS",
    "MAX_DICE",
    "MAX_PLAYERS",
    "MEAL_SCALE",
    "MOVE_MODES",
    "MP_SCALE",
    "OBSERVER_PIECES",
    "OZONE_SCALE",
    "PLAYER_PIECES",
    "PRIVATE_PIECES",
    "RELOCATION_DECISIONS",
    "ROUND_SCALE",
    "SCORE_SCALE",
    "SPATIAL_PIECES",
    "SoupFeatures",
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

#: Boolean frame fields, in the order of the ``frame_flags`` piece.
FRAME_FLAGS: tuple[str, ...] = (
    "free_used",  # divide: the free amoeba (0 amoebas on the board) was placed
    "struggle_used",  # feed: this amoeba already attacked with Struggle
    "escape_used",  # defend: Escape already used against this attack
    "defense_used",  # defend: Defense already used against this attack
    "optional",  # parasite_host: the meal can also be eaten without a host
)
#: Decision kinds during a relocation, whose observation carries the cubes taken along so far.
RELOCATION_DECISIONS: tuple[str, ...] = ("tentacle", "cling")
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
    ("carried_cubes", MAX_PLAYERS,
     "tentacle/cling: cubes already taken along by the move, per relative colour / CUBE_SCALE"),
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

#: Pieces about the observer itself, left out of the state (``state()``, seen by no one).
OBSERVER_PIECES: tuple[str, ...] = ("to_act",)
#: Pieces only the observer sees: none, the game has no hidden information.
PRIVATE_PIECES: tuple[str, ...] = ()

#: Pieces with one row (or channel group) per relative seat, or per relative colour.
PLAYER_PIECES: tuple[str, ...] = (
    "seat_present", "bp", "score", "in_finish_zone", "genes", "genes_new", "mutation_points",
    "amoebas_on_board", "aggression_used", "amoeba_damage", "amoeba_done", "cube_supply",
    "cubes", "amoebas", "amoeba_at", "damage",
)


class SoupFeatures:
    """The features of one configuration: the pieces, what counts are divided by, the bounds.

    Args:
        rules: Anything with ``.config`` (a ``PrimordialSoupConfig``) and ``.num_players``.

    Attributes:
        global_features: The global pieces (:data:`GLOBAL_PIECES`).
        spatial_features: The spatial pieces, each shaped ``(channels, num_spaces)``.
        features: Both groups in one vector, global pieces first (the ``"flat"`` layout).
        scale: Piece name -> what its raw values (counts, points) are divided by. Pieces
            not listed are one-hots or 0/1 flags, except ``deck_drifts`` (see
            :meth:`deck_drift_share`).
        damage_scale: The damage at which an amoeba dies (the larger of the two thresholds).
        num_amoebas: Amoebas per player (at most :data:`MAX_AMOEBAS`).
        deck_len: Cards in the environment deck.
        card_drift: Per environment card, the index of its drift in ``DRIFTS``.
        card_ozone: Per environment card, its ozone value (as a float32 holds it).
        gene_mp: Per gene (``data.GENES`` order), its mutation points.
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
        self.features = FeatureBuilder(
            [
                (p.name, p.shape, p.description)
                for p in self.global_features.pieces + self.spatial_features.pieces
            ]
        )
        self.damage_scale = float(max(config.death_damage, config.death_damage_longevity))
        self.num_amoebas = min(config.max_amoebas, MAX_AMOEBAS)
        self.deck_len = len(config.environment_deck)
        self.card_drift: list[int] = [DRIFTS.index(d) for d, _ in config.environment_deck]
        self.card_ozone: list[float] = [float(np.float32(o)) for _, o in config.environment_deck]
        self.gene_mp: list[int] = [int(g.mp) for g in GENES]
        max_copies = float(max(max(g.copies_3p, g.copies_4p) for g in GENES))
        self.scale: dict[str, float] = {
            "defect_remaining": MP_SCALE,
            "meal": MEAL_SCALE,
            "carried_cubes": CUBE_SCALE,
            "start_damage": self.damage_scale,
            "bp": BP_SCALE,
            "score": SCORE_SCALE,
            "mutation_points": MP_SCALE,
            "amoebas_on_board": float(MAX_AMOEBAS),
            "amoeba_damage": self.damage_scale,
            "cube_supply": float(config.cubes_per_colour),
            "gene_supply": max_copies,
            "ozone": OZONE_SCALE,
            "deck_size": float(self.deck_len),
            "round": ROUND_SCALE,
            "cubes": CUBE_SCALE,
            "amoebas": AMOEBA_COUNT_SCALE,
            "damage": self.damage_scale,
        }
        #: ``deck_drift_share[k]``: the ``deck_drifts`` value of a drift with ``k`` cards left.
        self.deck_drift_share: list[float] = [0.0]
        for _ in range(self.deck_len):
            self.deck_drift_share.append(self.add_card_share(self.deck_drift_share[-1]))

    def add_card_share(self, share: float) -> float:
        """``share`` plus one card's share (1 / deck length), rounded to float32.

        ``deck_drifts`` was first made by adding 1 / deck length per card to a float32
        vector; this keeps its values to the bit (``k / deck_len`` differs in the last bit
        for some counts).
        """
        return float(np.float32(share + 1.0 / self.deck_len))

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
        mp_max = float(sum(mp for mp in self.gene_mp if mp > 0))
        fb.write(high, "mutation_points", max(1.0, mp_max / MP_SCALE))
        fb.write(high, "defect_remaining", max(1.0, mp_max / MP_SCALE))
        fb.write(high, "start_damage", max(1.0, (c.start_damage + 1) / self.damage_scale))
        fb.write(high, "amoeba_damage", max(1.0, (self.damage_scale + 1) / self.damage_scale))
        fb.write(high, "ozone", max(1.0, max(self.card_ozone) / OZONE_SCALE))
        fb.write(high, "round", max(1.0, (c.max_rounds + 1) / ROUND_SCALE))
        return high

    def spatial_high(self) -> np.ndarray:
        """Upper bounds of the spatial vector (lower bounds are all 0); the same on every
        space of a channel."""
        c = self.config
        fb = self.spatial_features
        high = fb.zeros() + 1.0
        fb.write(high, "cubes", max(1.0, c.cubes_per_colour / CUBE_SCALE))
        fb.write(high, "amoebas", max(1.0, MAX_AMOEBAS / AMOEBA_COUNT_SCALE))
        damage_max = MAX_AMOEBAS * (self.damage_scale + 1) / self.damage_scale
        fb.write(high, "damage", damage_max)
        return high

    def high(self) -> np.ndarray:
        """Upper bounds of :attr:`features` (global pieces, then spatial ones)."""
        return np.concatenate([self.global_high(), self.spatial_high()])
