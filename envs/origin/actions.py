"""The Origin action space: one ``Discrete`` built from named segments.

Its size depends on the data files (territories, cards, straits, tile slots). Players in
actions are relative to the acting player (1 = the next seat in turn order).
"""

from __future__ import annotations

from enum import IntEnum

from primeval.envs.core.layout import ActionLayout
from primeval.envs.origin.gamedata import PAWN_COLOURS, OriginData
from primeval.envs.origin.state import DECKS


class RewardChoice(IntEnum):
    """Sub-choices of the ``reward_option`` segment on a yellow, orange or purple territory."""

    TILE_AND_CARD = 0  #: (a) a tile of that colour and the top card of its deck
    DRAW_CARDS = 1  #: (b) draw 3 cards of that colour and return 2


class BrownRewardChoice(IntEnum):
    """Sub-choices of the ``reward_option`` segment on a brown territory."""

    TWO_BROWN_TILES = 0  #: (a) 2 brown tiles
    ONE_OTHER_TILE = 1  #: (b) 1 tile from another colour's column


REWARD_OPTIONS = tuple(option.name.lower() for option in RewardChoice)
BROWN_OPTIONS = tuple(option.name.lower() for option in BrownRewardChoice)
MAX_PLAYERS = 4


def pawn_name(data: OriginData, pawn_type: int) -> str:
    h, w, c = data.components.pawn_types[pawn_type]
    return f"h{h}/w{w}/{PAWN_COLOURS[c]}"


def max_columns(data: OriginData) -> int:
    """Columns a player can have: one per level-1 tile."""
    return max(1, data.components.innovation_tiles[1])


def build_layout(data: OriginData) -> ActionLayout:
    t = data.world.size
    cards = len(data.cards)
    terr = [x.id for x in data.world.territories]
    card_ids = [c.id for c in data.cards]
    slots = data.components.slot_colours
    return ActionLayout(
        [
            ("keep_objective", cards, "setup: keep this dealt objective"),
            ("evolve_at", t, "Evolve: put a new pawn on this empty territory"),
            ("evolve_pawn", len(data.components.pawn_types), "Evolve: the pawn (h, w, colour)"),
            ("migrate_from", t, "Migrate: move your pawn from this territory"),
            ("migrate_to", t, "Migrate: to this empty territory"),
            ("swap_from", t, "Swap: move your pawn from this territory"),
            ("swap_onto", t, "Swap: onto this thinner pawn's territory"),
            ("play_card", cards, "play this card from your hand"),
            ("reward_option", 2, "reward: (a) tile(s) [+ card], (b) draw 3 return 2 / "
             "brown: 1 tile from another column"),
            ("take_tile", len(slots), "take the tile in this slot of the rewards board"),
            ("return_card", cards, "return this card from your hand to the bottom of its deck"),
            ("choose_deck", len(DECKS), "choose a deck (yellow, orange, purple)"),
            ("choose_player", MAX_PLAYERS - 1, "choose another player (relative seat +1..)"),
            ("choose_column", max_columns(data), "choose a column of tiles"),
            ("choose_strait", len(data.world.straits), "choose a strait token"),
            ("choose_territory", t, "choose a territory"),
            ("take_card", cards, "take this card from another player's hand"),
            ("give_card", cards, "give this card from your hand"),
            ("pass", 1, "end the turn / decline the current choice"),
        ],
        labels={
            "keep_objective": lambda i: f"keep_objective({card_ids[i]})",
            "evolve_at": lambda i: f"evolve_at({terr[i]})",
            "evolve_pawn": lambda i: f"evolve_pawn({pawn_name(data, i)})",
            "migrate_from": lambda i: f"migrate_from({terr[i]})",
            "migrate_to": lambda i: f"migrate_to({terr[i]})",
            "swap_from": lambda i: f"swap_from({terr[i]})",
            "swap_onto": lambda i: f"swap_onto({terr[i]})",
            "play_card": lambda i: f"play_card({card_ids[i]})",
            "reward_option": lambda i: f"reward_option({REWARD_OPTIONS[i]}/{BROWN_OPTIONS[i]})",
            "take_tile": lambda i: f"take_tile({slots[i]} slot {i})",
            "return_card": lambda i: f"return_card({card_ids[i]})",
            "choose_deck": lambda i: f"choose_deck({DECKS[i]})",
            "choose_player": lambda i: f"choose_player(+{i + 1})",
            "choose_column": lambda i: f"choose_column({i})",
            "choose_strait": lambda i: f"choose_strait({data.world.strait_ids[i]})",
            "choose_territory": lambda i: f"choose_territory({terr[i]})",
            "take_card": lambda i: f"take_card({card_ids[i]})",
            "give_card": lambda i: f"give_card({card_ids[i]})",
        },
    )
