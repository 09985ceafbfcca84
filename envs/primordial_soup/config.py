"""The frozen rules configuration of Primordial Soup.

Every value that ``docs/rules/primordial_soup.md`` marks as a choice or a reconstruction, and
every documented difference between the original rulebook and the user's summary, is a named
field here, so the real value can replace the reconstruction. Defaults follow the original
rulebook (S1) and the proposed defaults.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from primeval.envs.primordial_soup.data import (
    BOARD_LAYOUTS,
    DEFAULT_ENVIRONMENT_DECK,
    DRIFTS,
    Board,
    build_board,
)

ARMOR_PRICE_CHOICES = ("return_both",)


@dataclass(frozen=True)
class PrimordialSoupConfig:
    """Rules parameters. Invalid values raise ``ValueError`` naming the field.

    Attributes:
        num_players: 3 or 4.
        board_layout: Reconstructed soup layout, ``"A"`` (the default), ``"B"`` (A turned
            180 degrees), ``"A_mirror"`` or ``"B_mirror"``.
        environment_deck: The environment cards as ``(drift, ozone)`` pairs, drift one of
            W/N/E/S/none. The real values are unknown; the default is a reconstruction.
            The game lasts at most ``len(environment_deck) - 1`` rounds.
        finish_zone_start: First ladder space of the finish zone (42; 41 is the alternative).
        six_allows_stay: Whether a rolled 6 (free choice) may also choose to stay.
        start_bp: BP each player starts with.
        income_bp: BP received at the start of phase 4.
        division_cost: BP per new amoeba.
        division_cost_with_rate: BP per new amoeba with Division Rate.
        move_cost: BP for an active move (0 with Streamlining).
        cubes_per_colour: Food cubes of each colour (limited supply).
        setup_cubes_per_space: Cubes of each colour in play placed on every space at setup.
        excretion_cubes: Cubes of its own colour an amoeba excretes after eating.
        death_damage: Damage points at which an amoeba dies in phase 5.
        death_damage_longevity: The same with Longevity.
        natural_death_cubes: Cubes of each colour placed where an amoeba dies in phase 5
            (2 per the rulebook; the user's summary says 1).
        violent_death_cubes: Cubes of each colour placed where Struggle eats an amoeba.
        aggression_kill_cubes: Cubes of each colour placed where Aggression kills an amoeba.
        first_start_amoeba_damage: Damage on each player's first start amoeba; ``None`` means
            the rulebook's 1 with 4 players and 0 with 3.
        tentacle_max_cubes: Cubes Tentacle may take when relocating; ``None`` means the
            rulebook's 3 (2 with 3 players).
        parasitism_requires_shortage: The user's summary reading (Parasitism only when the
            standard meal is missing); the rulebook says no shortage is needed.
        holding_follows_own: The user's summary reading (Holding may also follow one's own
            amoebas); the rulebook says only opposing amoebas.
        relocated_amoeba_feeds: Whether an amoeba moved by Escape or carried by Holding feeds
            at its new space at once. Unknown in the rulebook; the proposed default is no
            (it still takes its own phase-1 turn later if it has not had it).
        holding_tentacle: Whether an amoeba clinging with Holding may also use its owner's
            Tentacle (the user's summary and the Z-Man FAQ: yes, the default): right after
            its cling it may take up to ``tentacle_limit`` cubes from the space it leaves,
            from those the mover (and earlier clinging amoebas) left there. ``False`` is the
            v0 reading: only the mover takes cubes.
        escape_after_lost_defense: Whether an attacked amoeba that loses its Defense fight
            (after Persistence's second fight, if any) may still use Escape, at Escape's usual
            price, before it is eaten (the user's summary: Defense first, then Escape; the
            default). ``False`` is the v0 reading: a lost fight ends the attack at once.
        armor_with_both: Armor bought by a player holding both Defense and Escape: the only
            reading implemented is ``"return_both"`` (one pays, the other must go because a
            gene and its predecessor may not be held together).
        start_order_dice: Dice each player rolls for the choice of ladder start spaces.
        max_amoebas: Amoebas per player (7 in the box).
    """

    num_players: int = 4
    board_layout: str = "A"
    environment_deck: tuple[tuple[str, int], ...] = DEFAULT_ENVIRONMENT_DECK
    finish_zone_start: int = 42
    six_allows_stay: bool = True
    start_bp: int = 4
    income_bp: int = 10
    division_cost: int = 6
    division_cost_with_rate: int = 4
    move_cost: int = 1
    cubes_per_colour: int = 55
    setup_cubes_per_space: int = 2
    excretion_cubes: int = 2
    death_damage: int = 2
    death_damage_longevity: int = 3
    natural_death_cubes: int = 2
    violent_death_cubes: int = 1
    aggression_kill_cubes: int = 2
    first_start_amoeba_damage: int | None = None
    tentacle_max_cubes: int | None = None
    parasitism_requires_shortage: bool = False
    holding_follows_own: bool = False
    relocated_amoeba_feeds: bool = False
    holding_tentacle: bool = True
    escape_after_lost_defense: bool = True
    armor_with_both: str = "return_both"
    start_order_dice: int = 2
    max_amoebas: int = 7

    def __post_init__(self) -> None:
        def bad(name: str, allowed: str) -> ValueError:
            value = getattr(self, name)
            return ValueError(
                f"PrimordialSoupConfig.{name}={value!r} is invalid; allowed: {allowed}"
            )

        if not _is_int(self.num_players) or self.num_players not in (3, 4):
            raise bad("num_players", "3 or 4")
        if not isinstance(self.board_layout, str) or self.board_layout not in BOARD_LAYOUTS:
            raise bad("board_layout", ", ".join(repr(k) for k in BOARD_LAYOUTS))
        deck = self.environment_deck
        if not isinstance(deck, tuple | list) or len(deck) < 2:
            raise bad("environment_deck", "a sequence of at least 2 (drift, ozone) cards")
        cards = []
        for card in deck:
            if (
                not isinstance(card, tuple | list)
                or len(card) != 2
                or not isinstance(card[0], str)
                or card[0] not in DRIFTS
                or not _is_int(card[1])
                or card[1] < 0
            ):
                raise bad("environment_deck", f"(drift, ozone) cards with drift in {DRIFTS} "
                          f"and ozone an int >= 0; bad card {card!r}")
            cards.append((str(card[0]), int(card[1])))
        object.__setattr__(self, "environment_deck", tuple(cards))
        for name in ("six_allows_stay", "parasitism_requires_shortage", "holding_follows_own",
                     "relocated_amoeba_feeds", "holding_tentacle",
                     "escape_after_lost_defense"):
            if not isinstance(getattr(self, name), bool):
                raise bad(name, "True or False")
        minimums = {
            "finish_zone_start": 5, "start_bp": 0, "income_bp": 0, "division_cost": 0,
            "division_cost_with_rate": 0, "move_cost": 0, "cubes_per_colour": 1,
            "setup_cubes_per_space": 0, "excretion_cubes": 0, "death_damage": 1,
            "death_damage_longevity": 1, "natural_death_cubes": 0, "violent_death_cubes": 0,
            "aggression_kill_cubes": 0, "start_order_dice": 1,
        }
        for name, low in minimums.items():
            value = getattr(self, name)
            if not _is_int(value) or value < low:
                raise bad(name, f"an int >= {low}")
        if not _is_int(self.max_amoebas) or not 1 <= self.max_amoebas <= 7:
            raise bad("max_amoebas", "an int from 1 to 7")
        for name in ("first_start_amoeba_damage", "tentacle_max_cubes"):
            value = getattr(self, name)
            if value is not None and (not _is_int(value) or value < 0):
                raise bad(name, "None (rulebook value) or an int >= 0")
        if self.tentacle_max_cubes is not None and self.tentacle_max_cubes > 3:
            raise bad("tentacle_max_cubes", "None or an int from 0 to 3")
        if self.armor_with_both not in ARMOR_PRICE_CHOICES:
            raise bad("armor_with_both", ", ".join(repr(c) for c in ARMOR_PRICE_CHOICES))
        board = build_board(self.board_layout, BOARD_LAYOUTS[self.board_layout])
        if board.num_spaces * self.setup_cubes_per_space > self.cubes_per_colour:
            raise bad("setup_cubes_per_space", "at most cubes_per_colour / number of spaces")
        object.__setattr__(self, "_board", board)

    # Derived values --------------------------------------------------------------------------

    @property
    def board(self) -> Board:
        return self._board  # type: ignore[attr-defined]

    @property
    def start_damage(self) -> int:
        if self.first_start_amoeba_damage is not None:
            return self.first_start_amoeba_damage
        return 1 if self.num_players == 4 else 0

    @property
    def tentacle_limit(self) -> int:
        if self.tentacle_max_cubes is not None:
            return self.tentacle_max_cubes
        return 3 if self.num_players == 4 else 2

    @property
    def max_rounds(self) -> int:
        return len(self.environment_deck) - 1

    # Serialisation ---------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["environment_deck"] = [list(c) for c in self.environment_deck]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> PrimordialSoupConfig:
        return cls.from_overrides(**d)

    @classmethod
    def from_overrides(cls, **overrides: Any) -> PrimordialSoupConfig:
        """Build a config, rejecting unknown field names with the list of known ones."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(overrides) - known)
        if unknown:
            raise ValueError(
                f"unknown PrimordialSoupConfig field(s) {unknown}; known fields: {sorted(known)}"
            )
        if "environment_deck" in overrides and isinstance(overrides["environment_deck"], list):
            overrides["environment_deck"] = tuple(
                tuple(c) if isinstance(c, list) else c for c in overrides["environment_deck"]
            )
        return cls(**overrides)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
