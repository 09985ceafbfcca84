"""The Primordial Soup view: the board text (``view_text.to_text``), the pending decision and
the action names (``PrimordialSoupView``)."""

from __future__ import annotations

import numpy as np
import pytest

from primeval.envs.primordial_soup.actions import MEAL_INDEX
from primeval.envs.primordial_soup.config import PrimordialSoupConfig
from primeval.envs.primordial_soup.data import GENES
from primeval.envs.primordial_soup.state import GameState, PlayerState
from primeval.envs.primordial_soup.view_text import (
    MAX_WIDTH,
    amoeba_label,
    describe_decision,
    to_text,
)

FRAMES: tuple[dict, ...] = (
    {"kind": "start_space", "player": 1},
    {"kind": "place_start", "player": 1, "damage": 1},
    {"kind": "move", "player": 1, "amoeba": 1},
    {"kind": "direction", "player": 1, "amoeba": 1, "mode": "turn", "step": 1,
     "allowed": (0, 2)},
    {"kind": "move_again", "player": 1, "amoeba": 1, "mode": "turn"},
    {"kind": "tentacle", "player": 1, "amoeba": 1, "space": 8, "dest": 9},
    {"kind": "cling", "player": 1, "amoeba": 1, "mover_player": 0, "mover_amoeba": 3,
     "space": 8, "dest": 9},
    {"kind": "feed", "player": 1, "amoeba": 1, "struggle_used": False},
    {"kind": "parasite_host", "player": 1, "amoeba": 1, "meal": (1, 0, 1), "optional": False},
    {"kind": "defend", "player": 1, "amoeba": 1, "attacker_player": 0, "space": 8,
     "attack_kind": "struggle", "escape_used": False, "defense_used": True},
    {"kind": "retry", "player": 0, "amoeba": -1, "attack_kind": "aggression", "space": 8},
    {"kind": "defect", "player": 1, "remaining": 5},
    {"kind": "buy", "player": 1},
    {"kind": "divide", "player": 1, "free_used": False},
    {"kind": "aggression", "player": 1},
)


def make_state(num_players: int = 4, stack: list[dict] | None = None) -> GameState:
    """A small hand-built phase-1 position: amoebas on spaces 3 and 8, genes, damage."""
    config = PrimordialSoupConfig(num_players=num_players)
    players = [
        PlayerState(bp=4 + p, score=p + 1, genes={}, amoeba_space=[-1] * 7,
                    amoeba_damage=[0] * 7, amoeba_done=[False] * 7)
        for p in range(num_players)
    ]
    players[0].amoeba_space[3] = 8
    players[1].amoeba_space[1], players[1].amoeba_damage[1] = 8, 1
    players[1].amoeba_space[2] = 3
    players[2].amoeba_space[0], players[2].amoeba_damage[0] = 17, 2
    players[0].genes = {"tentacle": 2, "ray_protection": 1}
    players[1].genes = {"armor": 2}
    spaces = config.board.num_spaces
    return GameState(
        num_players=num_players,
        round=2,
        phase="movement_and_feeding",
        players=players,
        cubes=[[2] * num_players for _ in range(spaces)],
        supply=[config.cubes_per_colour - 2 * spaces] * num_players,
        gene_supply=[g.copies(num_players) for g in GENES],
        environment_card=1,  # ("W", 6) in the default deck
        environment_deck=[0, 2, 3, 4, 5, 6, 7, 8],
        stack=list(stack) if stack is not None else [
            {"kind": "feed", "player": 1, "amoeba": 1, "struggle_used": False}
        ],
        dice=(4,),
    )


def test_text_contains_key_elements():
    """The text names the round, phase, environment card, deck size, every player with BP,
    score and genes, amoebas as ``P<owner>#<number><stars>``, the island, the finish zone and
    the pending decision in words."""
    state = make_state(4)
    text = to_text(state, PrimordialSoupConfig())
    for needle in (
        "round 2/10",
        "movement_and_feeding",
        "drift W, ozone 6",
        "8 cards left",
        "island",
        "finish zone from 42",
        "player_0", "player_1", "player_2", "player_3",
        "BP 5",  # player_1
        "Tentacle", "Ray Protection", "Armor",
        "P0#4", "P1#2*", "P1#3", "P2#1**",
        "player_1 chooses how amoeba #2 on space 8 feeds",
        "R2G2B2Y2",
    ):
        assert needle in text, needle


def test_board_grid_follows_layout():
    """The soup grid has one row block per board row; each space id appears in its column
    and the island sits at its cell."""
    config = PrimordialSoupConfig()
    text = to_text(make_state(4), config)
    lines = text.splitlines()
    grid = [ln for ln in lines if ln.startswith("|")]
    cell_w = (len(grid[0]) - 1) // config.board.width - 1
    for space, (x, _) in enumerate(config.board.cells):
        owner = [ln for ln in grid if f"{space:>2}: R" in ln]
        assert len(owner) == 1, space
        col = owner[0].index(f"{space:>2}: R") // (cell_w + 1)
        assert col == x, space
    island_line = next(ln for ln in grid if "island" in ln)
    assert island_line.index("island") // (cell_w + 1) == config.board.island[0]


@pytest.mark.parametrize("num_players", [3, 4])
@pytest.mark.parametrize("frame", FRAMES, ids=[f["kind"] for f in FRAMES])
def test_lines_fit_and_decision_is_described(num_players, frame):
    """Every decision kind is described in words naming the acting player, and no line is
    longer than MAX_WIDTH characters."""
    state = make_state(num_players, stack=[{"kind": "phase1"}, dict(frame)])
    text = to_text(state, PrimordialSoupConfig(num_players=num_players))
    assert all(len(ln) <= MAX_WIDTH for ln in text.splitlines())
    words = describe_decision(state)
    assert f"player_{frame['player']}" in words
    assert "automatic" not in words
    assert f"Pending: {words}"[:40] in text


def test_three_player_colours():
    """A 3-player state shows only colours R, G, B."""
    text = to_text(make_state(3), PrimordialSoupConfig(num_players=3))
    assert "R2G2B2" in text and "Y2" not in text
    assert "player_3" not in text


def test_no_decision_and_game_over():
    """An empty stack reads "nothing pending", an automatic step is named as such, and the
    game-over view names the winner."""
    config = PrimordialSoupConfig()
    state = make_state(4, stack=[])
    assert "nothing pending" in to_text(state, config)
    state.stack = [{"kind": "natural_deaths"}]
    assert "natural_deaths (automatic)" in to_text(state, config)
    state.stack, state.phase = [], "game_over"
    assert "player_3 wins" in to_text(state, config)


def test_amoeba_label():
    """Amoeba labels show owner, number (index + 1) and one star per damage point."""
    assert amoeba_label(1, 2, 1) == "P1#3*"
    assert amoeba_label(0, 0, 0) == "P0#1"


def test_random_game_renders_within_width():
    """Every state of a seeded random 4-player game renders with the pending decision and no
    line longer than MAX_WIDTH."""
    from primeval.envs.primordial_soup.rules import PrimordialSoupRules

    rules = PrimordialSoupRules(num_players=4)
    rng = np.random.default_rng(7)
    state = rules.initial_state(rng)
    while True:
        text = to_text(state, rules.config)
        assert all(len(ln) <= MAX_WIDTH for ln in text.splitlines()), text
        assert "Pending: " in text
        if rules.is_terminal(state):
            break
        assert "automatic" not in describe_decision(state)
        state = rules.apply(state, int(rng.choice(rules.legal_actions(state))), rng)
    assert "Game over" in text


def test_view_names_actions_with_absolute_players_and_colours():
    """``action_name`` is the layout's name plus, for choices relative to the actor, the same
    choice with absolute players and colours; any viewer reads the same (no hidden
    information)."""
    from primeval.envs.primordial_soup.rules import PrimordialSoupRules
    from primeval.envs.primordial_soup.view import PrimordialSoupView

    rules = PrimordialSoupRules(num_players=4)
    view = PrimordialSoupView(rules)
    state = make_state(4)  # player_1 feeds
    layout = rules.layout
    eat = layout.encode("eat", MEAL_INDEX[(1, 0, 1)])
    assert view.action_name(state, eat) == (
        f"{layout.describe(eat)} = eat 1 B (player_2) + 1 R (player_0)")
    attack = layout.encode("attack", (3, 3))
    assert view.action_name(state, attack) == (
        f"{layout.describe(attack)} = attack player_0's amoeba #4")
    host = layout.encode("parasite_host", 0)
    assert view.action_name(state, host).endswith(" = player_2 pays")
    buy = layout.encode("buy_gene", 0)
    assert view.action_name(state, buy) == layout.describe(buy)  # nothing to add
    assert all(view.action_name(state, a, viewer) == view.action_name(state, a)
               for a in (eat, attack, host, buy) for viewer in range(4))
    assert view.describe_decision(state, 0) == describe_decision(state)
    assert view.to_text(state, 2) == to_text(state, rules.config)
