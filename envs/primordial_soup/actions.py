"""The Primordial Soup action space: one ``Discrete`` built from named segments.

Colours and players in actions are *relative* to the acting player (0 = the actor, 1 = the
next seat in turn order, ...), matching the ego-centric observations. Board spaces and amoeba
numbers are absolute (amoeba numbers are the actor's own, 1..7 stored as index 0..6).
"""

from __future__ import annotations

import itertools
from enum import IntEnum

from primeval.envs.core.layout import ActionLayout
from primeval.envs.primordial_soup.data import DIRECTIONS, GENES, NUM_GENES

MAX_PLAYERS = 4
MAX_AMOEBAS = 7
NUM_SPACES = 19

#: Meals as cube counts over the three foreign colours (relative offsets 1, 2, 3), total 1..4.
#: With 3 players only meals with a zero third entry can be legal.
MEALS: tuple[tuple[int, int, int], ...] = tuple(
    m for total in range(1, 5) for m in itertools.product(range(total + 1), repeat=3)
    if sum(m) == total
)
MEAL_INDEX = {m: i for i, m in enumerate(MEALS)}

#: Tentacle takes: cube counts over the four colours (relative offsets 0..3), total 1..3.
TAKES: tuple[tuple[int, int, int, int], ...] = tuple(
    t for total in range(1, 4) for t in itertools.product(range(total + 1), repeat=4)
    if sum(t) == total
)
TAKE_INDEX = {t: i for i, t in enumerate(TAKES)}



class MoveChoice(IntEnum):
    """Sub-choices of the ``move`` segment: how an amoeba moves in phase 1."""

    DRIFT = 0  #: one space in the compass's drift direction (or stay with no drift)
    ACTIVE_MOVE = 1  #: pay (1 BP, 0 with Streamlining) and roll for the direction
    HOLD = 2  #: Holding: stay in place


class Defence(IntEnum):
    """Sub-choices of the ``defend`` segment: how an attacked amoeba's owner defends."""

    ESCAPE = 0  #: an out-of-turn active move
    DEFENSE = 1  #: a die fight


MOVE_CHOICES = tuple(choice.name.lower() for choice in MoveChoice)
DEFENCES = tuple(defence.name.lower() for defence in Defence)


def _fmt_counts(counts: tuple[int, ...], first_offset: int) -> str:
    parts = [f"{n}x colour+{first_offset + i}" for i, n in enumerate(counts) if n]
    return "+".join(parts)


LAYOUT = ActionLayout(
    [
        ("start_space", 4, "setup: put your ladder marker on start space 1..4"),
        ("place_amoeba", (MAX_AMOEBAS, NUM_SPACES),
         "place own amoeba number (i+1) on board space j (setup and phase 4)"),
        ("move", len(MOVE_CHOICES), "phase 1 movement: drift, pay and move actively, "
         "or stay (Holding)"),
        ("direction", len(DIRECTIONS), "direction of an active move: W, N, E, S, stay"),
        ("move_again", 1, "Speed/Persistence: make the second active move"),
        ("tentacle", len(TAKES), "Tentacle: cubes to take along (counts by relative colour)"),
        ("cling", 1, "Holding: cling to the amoeba leaving your amoeba's space"),
        ("eat", len(MEALS), "feed: the meal (counts by relative foreign colour +1,+2,+3)"),
        ("attack", (MAX_PLAYERS, MAX_AMOEBAS),
         "Struggle/Aggression: attack amoeba (relative owner, number)"),
        ("parasite_host", MAX_PLAYERS - 1, "Parasitism: the relative player who pays 1 BP"),
        ("defend", len(DEFENCES), "attacked: use Escape or Defense"),
        ("give_up_gene", NUM_GENES, "gene defect: give up this gene"),
        ("pay_bp", 1, "gene defect: pay the rest in BP"),
        ("buy_gene", NUM_GENES, "phase 3: buy this gene"),
        ("pass", 1, "decline the current choice (done, stop, starve, yield, let go, no host)"),
    ],
    labels={
        "start_space": lambda i: f"start_space({i + 1})",
        "place_amoeba": lambda ij: f"place_amoeba(#{ij[0] + 1} on space {ij[1]})",
        "move": lambda i: MOVE_CHOICES[i],
        "direction": lambda i: f"direction({DIRECTIONS[i]})",
        "tentacle": lambda i: f"tentacle({_fmt_counts(TAKES[i], 0)})",
        "eat": lambda i: f"eat({_fmt_counts(MEALS[i], 1)})",
        "attack": lambda ij: f"attack(player+{ij[0]} amoeba #{ij[1] + 1})",
        "parasite_host": lambda i: f"parasite_host(player+{i + 1})",
        "defend": lambda i: DEFENCES[i],
        "give_up_gene": lambda i: f"give_up_gene({GENES[i].name})",
        "buy_gene": lambda i: f"buy_gene({GENES[i].name})",
    },
)
