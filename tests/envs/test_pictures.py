"""``render_mode="rgb_array"``: the pictures of both games, their hook and ``primeval render``."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import matplotlib.image as mpimg
import numpy as np
import pytest
from pettingzoo.test import render_test

from primeval.envs.games import GAMES as CATALOGUE
from primeval.envs.origin import view_picture as origin_picture
from primeval.envs.origin.gamedata import load_map
from primeval.envs.primordial_soup import view_picture as soup_picture
from primeval.training.cli import main

#: Every game of the catalogue with a picture (its descriptor's ``picture``).
GAMES = {name: game.module() for name, game in CATALOGUE.items() if game.picture}
SIZES = {"primordial_soup": (soup_picture.HEIGHT, soup_picture.WIDTH),
         "origin": (origin_picture.HEIGHT, origin_picture.WIDTH)}
CASES = [(name, n) for name in GAMES for n in CATALOGUE[name].player_counts]


def played(game: str, num_players: int, seed: int, steps: int):
    """A raw env after ``steps`` seeded random legal actions from ``reset(seed)``."""
    env = GAMES[game].raw_env(num_players=num_players, render_mode="rgb_array", max_steps=None)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if env.rules.is_terminal(env.game_state):
            break
        env.step(int(rng.choice(np.flatnonzero(env.rules.legal_mask(env.game_state)))))
    return env


@pytest.mark.parametrize(("game", "num_players"), CASES)
def test_picture_shape_and_dtype(game, num_players):
    """Every player count gives an (H, W, 3) uint8 picture of the game's fixed size, at the
    start and in the middle of a game, and it is not blank."""
    env = played(game, num_players, seed=num_players, steps=0)
    start = env.view.to_rgb_array(env.game_state)
    env = played(game, num_players, seed=num_players, steps=120)
    middle = env.view.to_rgb_array(env.game_state)
    for picture in (start, middle):
        assert isinstance(picture, np.ndarray)
        assert picture.shape == (*SIZES[game], 3)
        assert picture.dtype == np.uint8
        assert picture.min() < 60 and picture.max() == 255  # ink on a white page
        assert len(np.unique(picture.reshape(-1, 3), axis=0)) > 50  # colours, not a blank


@pytest.mark.parametrize("game", sorted(GAMES))
def test_different_states_give_different_pictures(game):
    env = played(game, 4, seed=1, steps=0)
    before = env.view.to_rgb_array(env.game_state)
    env = played(game, 4, seed=1, steps=60)
    after = env.view.to_rgb_array(env.game_state)
    assert not np.array_equal(before, after)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_picture_is_deterministic(game):
    """The same state (or a copy of it) gives the same bytes; drawing changes nothing."""
    env = played(game, 3, seed=5, steps=80)
    state = env.game_state
    before = state.to_dict()
    first = env.view.to_rgb_array(state)
    second = env.view.to_rgb_array(state.copy())
    assert np.array_equal(first, second)
    assert state.to_dict() == before
    again = played(game, 3, seed=5, steps=80)  # a new env and rules object
    assert np.array_equal(first, again.view.to_rgb_array(again.game_state))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_render_through_env(game):
    """``env(render_mode="rgb_array").render()`` returns the picture of the game state."""
    env = GAMES[game].env(num_players=3, render_mode="rgb_array")
    assert "rgb_array" in env.metadata["render_modes"]
    env.reset(seed=2)
    picture = env.render()
    assert picture.shape == (*SIZES[game], 3) and picture.dtype == np.uint8
    raw = env.unwrapped
    assert np.array_equal(picture, raw.view.to_rgb_array(raw.game_state))
    env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    assert env.render().shape == picture.shape


@pytest.mark.parametrize("game", sorted(GAMES))
def test_pettingzoo_render_test(game, capsys, monkeypatch):
    """PettingZoo's render_test over every mode in metadata (human: the window, drawn off
    screen; ansi; rgb_array)."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    render_test(lambda render_mode=None: GAMES[game].env(num_players=3,
                                                         render_mode=render_mode))
    capsys.readouterr()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_render_mode_validation(game):
    with pytest.raises(ValueError, match=r"unknown render_mode 'rgb'.*rgb_array"):
        GAMES[game].env(render_mode="rgb")
    env = GAMES[game].env(render_mode=None)
    env.reset(seed=0)
    with pytest.warns(UserWarning, match="without specifying any render mode"):
        assert env.render() is None


def test_matplotlib_is_imported_only_when_drawing():
    code = textwrap.dedent("""
        import sys
        from primeval.envs import origin_v0, primordial_soup_v1
        for module in (primordial_soup_v1, origin_v0):
            env = module.env(render_mode="rgb_array")
            env.reset(seed=0)
        assert "matplotlib" not in sys.modules, "imported too early"
        env.render()
        assert "matplotlib" in sys.modules
    """)
    subprocess.run([sys.executable, "-c", code], check=True)


def test_origin_picture_shows_hand_sizes_not_card_identities():
    """Cards in hand and deck order are hidden: changing which cards a hand holds (same
    counts by colour) or the order of a deck leaves the picture unchanged."""
    env = played("origin", 3, seed=4, steps=150)
    rules, view, state = env.rules, env.view, env.game_state
    picture = view.to_rgb_array(state)
    hidden = state.copy()
    seat = max(range(3), key=lambda p: len(hidden.hands[p]))
    assert hidden.hands[seat]
    card = hidden.hands[seat][0]
    colour = rules.data.cards[card].colour
    which = ("yellow", "orange", "purple").index(colour)
    deck = hidden.decks[which]
    assert deck, "need a card of the same colour to swap in"
    hidden.hands[seat][0], deck[0] = deck[0], card  # another card of the same colour
    for d in hidden.decks:
        d.reverse()
    assert hidden.hands != state.hands
    assert np.array_equal(picture, view.to_rgb_array(hidden))
    more = state.copy()
    more.hands[seat].append(more.decks[which].pop())  # one more card shows
    assert not np.array_equal(picture, view.to_rgb_array(more))


def test_origin_layout_works_for_a_user_map(tmp_path):
    """Territory positions come from the data: other continent ids and sizes get a layout
    inside the box, with room between territories, the same every time."""
    path = tmp_path / "map.yaml"
    path.write_text(textwrap.dedent("""
        continents: {X: Xland, Y: Yland, Z: Zland}
        origin: X0
        territories:
          X0: [X, origin, Start]
          X1: [X, green, A]
          X2: [X, yellow, B]
          Y1: [Y, orange, C]
          Y2: [Y, purple, D]
          Y3: [Y, brown, E]
          Y4: [Y, green, F]
          Z1: [Z, brown, G]
        land_edges:
          X: [X0-X1, X1-X2, X0-X2]
          Y: [Y1-Y2, Y2-Y3, Y3-Y4, Y4-Y1]
          Z: []
        straits:
          S1: [X2, Y1]
          S2: [Y3, Z1]
    """))
    world = load_map(path)
    pos = origin_picture.layout_positions(world, 600, 400)
    assert pos.shape == (world.size, 2)
    assert (pos >= 0).all() and (pos[:, 0] <= 600).all() and (pos[:, 1] <= 400).all()
    gaps = np.hypot(*(pos[:, None] - pos[None]).transpose(2, 0, 1))
    np.fill_diagonal(gaps, np.inf)
    assert gaps.min() > 2 * origin_picture._NODE
    origin_picture._LAYOUT_CACHE.clear()
    assert np.array_equal(pos, origin_picture.layout_positions(world, 600, 400))


@pytest.mark.parametrize(("game", "players"), [("origin", 3), ("primordial_soup", 4)])
def test_cli_render_writes_a_png(game, players, tmp_path, capsys):
    out = tmp_path / "pictures" / "board.png"
    argv = ["render", "--game", game, "--players", str(players), "--seed", "3", "--steps",
            "150", "--out", str(out)]
    assert main(argv) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    image = mpimg.imread(out)
    assert image.shape[:2] == SIZES[game] and image.shape[2] in (3, 4)
    # The file holds the picture of the same seeded game.
    env = played(game, players, seed=3, steps=150)
    expected = env.view.to_rgb_array(env.game_state)
    assert np.array_equal((image[..., :3] * 255).round().astype(np.uint8), expected)


def _texts(sketch) -> list[str]:
    return [args[2] for kind, _name, args, _kw in sketch.ops if kind == "text"]


def test_soup_picture_names_genes_in_full_with_a_key():
    """Every gene a player holds is written whole on one line (no "Substit.", no cut), the
    newest marked "+", even for a player holding every gene; a key explains the marks."""
    from primeval.envs.core.picture import Sketch
    from primeval.envs.primordial_soup.data import GENES

    env = played("primordial_soup", 4, seed=2, steps=150)
    state = env.game_state.copy()
    state.players[1].genes = {gene.key: 1 for gene in GENES}
    state.players[1].genes[GENES[0].key] = state.round
    sketch = Sketch(soup_picture.WIDTH, soup_picture.HEIGHT)
    soup_picture._draw(sketch, state, env.rules.config)
    texts = _texts(sketch)
    assert not any(t.endswith("...") for t in texts)
    start = texts.index(next(t for t in texts if t.startswith("genes: ") and len(t) > 40))
    lines = [texts[start]]
    for t in texts[start + 1:]:  # the continuation lines of that player's genes
        if not t.startswith("    ") or "amoebas" in t:
            break
        lines.append(t)
    written = [item.strip() for line in lines
               for item in line.removeprefix("genes:").split(",") if item.strip()]
    assert written == [f"{GENES[0].name}+"] + [gene.name for gene in GENES[1:]]
    assert len(lines) > 1  # wrapped between names
    assert "damage point (* in lists)" in texts and "Gene+ = bought this round" in texts
    assert "amoeba to act" in texts


def test_origin_pawns_show_height_and_width():
    """Each pawn on the map is drawn as a box that grows with its height and width, with
    ``height/width`` written on it."""
    from primeval.envs.core.picture import Sketch

    env = played("origin", 3, seed=4, steps=150)
    state, rules = env.game_state, env.rules
    sketch = Sketch(origin_picture.WIDTH, origin_picture.HEIGHT)
    origin_picture._draw(sketch, state, rules)
    texts = _texts(sketch)
    boxes = [args[1:3] for kind, name, args, _kw in sketch.ops
             if kind == "patch" and name == "FancyBboxPatch"]
    pawns = [rules.data.components.pawn_types[p] for p in state.pawn if p >= 0]
    assert len(pawns) > 3
    for h, w, _colour in pawns:
        assert f"{h}/{w}" in texts
        assert tuple(origin_picture.pawn_box(h, w)) in boxes
    sizes = [origin_picture.pawn_box(h, w) for h in (1, 2, 3) for w in (1, 2, 3)]
    assert len(set(sizes)) == 9  # every height and width tells apart
    assert all(bw > 2 * 7 and bh >= 15 for bw, bh in sizes)  # room for "h/w"


def test_origin_picture_title_during_the_setup_names_who_decides():
    from primeval.envs.core.picture import Sketch

    env = GAMES["origin"].raw_env(num_players=3)
    env.reset(seed=1)
    state = env.game_state
    assert state.phase == "setup"
    sketch = Sketch(origin_picture.WIDTH, origin_picture.HEIGHT)
    origin_picture._draw(sketch, state, env.rules)
    title = _texts(sketch)[0]
    decider = env.rules.current_player(state)
    assert title == (f"Origin  -  setup  -  start player player_{state.start_player}  -  "
                     f"player_{decider} to decide")
    texts = _texts(sketch)
    assert "to play" not in texts
    head = next(i for i, t in enumerate(texts) if t.startswith(f"player_{decider}   "))
    assert texts[head + 1].startswith("to decide")  # the panel marks who decides
