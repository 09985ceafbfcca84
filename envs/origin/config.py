"""The frozen rules configuration of Origin.

The component data (map, cards, tiles, tokens) live in YAML files; the default ones ship with
the package and are RECONSTRUCTIONS of the printed components. Pass your own files here.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from primeval.envs.origin.gamedata import OriginData, load_origin_data


@dataclass(frozen=True)
class OriginConfig:
    """Rules parameters. Invalid values raise ``ValueError`` naming the field.

    Attributes:
        num_players: 2, 3 or 4.
        map_file: A map YAML file (``None``: the shipped reconstruction).
        cards_file: A cards YAML file (``None``: the shipped reconstruction).
        components_file: A components YAML file (``None``: the shipped one).
        final_round_starts_with_trigger: After the end is triggered, every player plays one
            final turn. ``False`` (adopted reading): starting with the player after the one who
            triggered it; ``True``: the triggering player plays the first final turn at once.
        random_start_player: The rulebook lets the youngest player start; ``True`` draws the
            start player at random, ``False`` always starts with ``player_0``.
        score_tiebreak: Add the tie-break (cards in hand / 100) to ``scores()``, so that ranks
            and rank rewards follow the rulebook's tie-break.
    """

    num_players: int = 3
    map_file: str | None = None
    cards_file: str | None = None
    components_file: str | None = None
    final_round_starts_with_trigger: bool = False
    random_start_player: bool = True
    score_tiebreak: bool = True

    def __post_init__(self) -> None:
        def bad(name: str, allowed: str) -> ValueError:
            return ValueError(
                f"OriginConfig.{name}={getattr(self, name)!r} is invalid; allowed: {allowed}"
            )

        if (not isinstance(self.num_players, int) or isinstance(self.num_players, bool)
                or self.num_players not in (2, 3, 4)):
            raise bad("num_players", "2, 3 or 4")
        for name in ("map_file", "cards_file", "components_file"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise bad(name, "None or a path string")
        for name in ("final_round_starts_with_trigger", "random_start_player",
                     "score_tiebreak"):
            if not isinstance(getattr(self, name), bool):
                raise bad(name, "True or False")
        data = load_origin_data(self.map_file, self.cards_file, self.components_file)
        object.__setattr__(self, "_data", data)

    @property
    def data(self) -> OriginData:
        return self._data  # type: ignore[attr-defined]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_overrides(cls, **overrides: Any) -> OriginConfig:
        """Build a config, rejecting unknown field names with the list of known ones."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(overrides) - known)
        if unknown:
            raise ValueError(
                f"unknown OriginConfig field(s) {unknown}; known fields: {sorted(known)}"
            )
        return cls(**overrides)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> OriginConfig:
        """Rebuild a config from :meth:`to_dict` (validated like :meth:`from_overrides`)."""
        return cls.from_overrides(**d)
