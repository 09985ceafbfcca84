"""The fast ``rgb_array`` path equals the reference drawing pixel for pixel (issue 17).

``view_picture.to_rgb_array`` (what ``env.render()`` returns) records the drawing on a
``Sketch`` and paints it from recorded renderer calls and cached tiles
(:mod:`primeval.envs.core.picture_fast`); ``to_rgb_array_reference`` draws the same calls as
one plain matplotlib figure. They must give the same bytes, whatever the fast path has
cached. (No exceptions and no tolerance: the fast path makes the same Agg calls.)
"""

from __future__ import annotations

import numpy as np
import pytest

from primeval.envs.core import picture, picture_fast
from primeval.envs.core.descriptor import resolve
from primeval.envs.core.picture import Sketch, shapes, sketch_reference
from primeval.envs.core.picture_fast import sketch_to_array
from primeval.envs.games import GAMES as CATALOGUE

#: Every game of the catalogue with a picture: its env module, picture module and the
#: argument the picture functions take after the state (its descriptor's).
GAMES = {name: (game.module(), resolve(game.picture), game.picture_argument)
         for name, game in CATALOGUE.items() if game.picture}
CASES = [(name, n) for name in GAMES for n in CATALOGUE[name].player_counts]


def frames(game: str, num_players: int, seed: int, every: int, limit: int = 2000,
           draw_every: int = 1):
    """``(env, state, compare)`` after every ``draw_every``-th step of a seeded random game to
    its end (or ``limit`` steps), and the last state; ``compare`` on about every ``every``-th
    step and on the last state."""
    env = GAMES[game][0].raw_env(num_players=num_players, render_mode="rgb_array",
                                 max_steps=None)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for step in range(limit + 1):
        last = step == limit or env.rules.is_terminal(env.game_state)
        if last or step % draw_every == 0:
            yield env, env.game_state, last or step % every < draw_every
        if last:
            return
        env.step(int(rng.choice(np.flatnonzero(env.rules.legal_mask(env.game_state)))))


def assert_same(fast: np.ndarray, reference: np.ndarray, where: str) -> None:
    assert fast.shape == reference.shape and fast.dtype == reference.dtype == np.uint8
    if not np.array_equal(fast, reference):
        diff = np.abs(fast.astype(int) - reference.astype(int)).max(axis=2)
        rows, cols = np.nonzero(diff)
        pytest.fail(f"{where}: {len(rows)} pixels differ (max {diff.max()}), first at "
                    f"row {rows[0]}, column {cols[0]}")


@pytest.mark.parametrize(("game", "num_players"), CASES)
@pytest.mark.parametrize("seed", [11, 12])
def test_fast_picture_equals_reference_over_random_games(game, num_players, seed):
    """A seeded random game (170 to 370 steps) goes through the fast path every fourth step,
    its caches filling as the game goes; six or seven of those frames, the first (nothing
    cached yet) and the end of the game among them, equal the reference drawing byte for
    byte."""
    _, module, argument = GAMES[game]
    picture_fast._PAINTERS.clear()  # the first frame starts with nothing cached
    steps = sum(1 for _ in frames(game, num_players, seed, every=10**9))
    compared = 0
    for env, state, compare in frames(game, num_players, seed, every=max(4, steps // 5),
                                      draw_every=4):
        fast = env.view.to_rgb_array(state)
        if compare:
            reference = module.to_rgb_array_reference(state, argument(env))
            assert_same(fast, reference, f"{game} {num_players}p seed {seed}, "
                        f"{state.phase}")
            compared += 1
    assert compared >= 6


def test_fast_picture_with_tiny_caches(monkeypatch):
    """With caches far too small for a frame (calls and tiles dropped all the time, ids never
    reused), the pictures are still the reference's."""
    monkeypatch.setattr(picture_fast, "MAX_OPS", 40)
    monkeypatch.setattr(picture_fast, "MAX_TILES", 25)
    monkeypatch.setattr(picture_fast, "MAX_GLYPHS", 30)
    picture_fast._PAINTERS.clear()
    for game, num_players in (("primordial_soup", 3), ("origin", 2)):
        _, module, argument = GAMES[game]
        for env, state, compare in frames(game, num_players, seed=3, every=6, limit=12,
                                          draw_every=2):
            fast = env.view.to_rgb_array(state)
            if compare:
                assert_same(fast, module.to_rgb_array_reference(state, argument(env)),
                            f"{game} with tiny caches")
    picture_fast._PAINTERS.clear()


def test_fast_picture_shares_its_cache_across_player_counts_and_envs():
    """One cache per picture size serves every env of a game: frames of a 3- and a 4-player
    game drawn in turn are each their own reference picture."""
    _, module, argument = GAMES["primordial_soup"]
    three = frames("primordial_soup", 3, seed=5, every=8, limit=24, draw_every=2)
    four = frames("primordial_soup", 4, seed=5, every=8, limit=24, draw_every=2)
    for (env3, s3, c3), (env4, s4, c4) in zip(three, four, strict=False):
        a, b = env3.view.to_rgb_array(s3), env4.view.to_rgb_array(s4)
        if c3:
            assert_same(a, module.to_rgb_array_reference(s3, argument(env3)), "3p")
        if c4:
            assert_same(b, module.to_rgb_array_reference(s4, argument(env4)), "4p")


def test_fast_picture_does_not_keep_the_returned_array():
    """The caller owns the returned array: changing it changes no later picture."""
    env, state, _ = next(frames("origin", 3, seed=1, every=1))
    first = env.view.to_rgb_array(state)
    kept = first.copy()
    first[:] = 0
    assert np.array_equal(env.view.to_rgb_array(state), kept)


def test_sketch_records_calls_and_draws_like_matplotlib():
    """A sketch of every kind of call the views make (and some they do not: mathtext, a
    rotation, a hatch, dashes, clipping at the border, alpha, zorders out of order) gives
    the picture the same calls give on a matplotlib canvas, the first time and from cache."""
    def draw(ax):
        patches = shapes(ax)
        ax.add_patch(patches.Rectangle((10, 10), 80, 40, facecolor="#d8edf8",
                                       edgecolor="#4f86a8", linewidth=1.2))
        ax.add_patch(patches.Circle((60, 30), 13, facecolor="red", edgecolor="black",
                                    linewidth=2.6, alpha=0.55, zorder=4))
        ax.add_patch(patches.FancyBboxPatch((100, 5), 90, 50,
                                            boxstyle="round,pad=0,rounding_size=6",
                                            facecolor="#f7f7f7", edgecolor="blue"))
        ax.add_patch(patches.RegularPolygon((210, 30), 6, radius=8.5, facecolor="green",
                                            edgecolor="white", linewidth=0.8, zorder=8))
        ax.add_patch(patches.FancyArrow(230, 30, 30, 0, width=2, head_width=8,
                                        head_length=6, length_includes_head=True))
        ax.add_patch(patches.Rectangle((280, 10), 30, 30, hatch="//", facecolor="none"))
        ax.add_patch(patches.Circle((-5, 70), 20, facecolor="orange"))  # off the border
        ax.plot((10, 300), (70, 95), color="#2f6db3", linewidth=1.4, linestyle=(0, (4, 3)),
                zorder=1)
        ax.plot((10, 300), (95, 70), color="#8a8a8a", linewidth=1.3, zorder=5,
                solid_capstyle="round")
        ax.text(12, 80, "Pending: player_2 wins", fontsize=8.5, va="center")
        ax.text(150, 85, "AF7", fontsize=6.8, ha="center", va="center", zorder=6)
        ax.text(300, 85, "right, bold italic", fontsize=9, ha="right", fontweight="bold",
                style="italic")
        ax.text(60, 30.5, "3", fontsize=10, ha="center", va="center", color="white",
                fontweight="bold", zorder=4)
        ax.text(200, 100, r"$x^2$ math", fontsize=9)
        ax.text(250, 100, "turned", fontsize=8, rotation=30)

    sketch = Sketch(320, 120)
    draw(sketch)
    fig, ax = picture.new_canvas(320, 120)
    draw(ax)
    reference = picture.to_array(fig)
    assert_same(sketch_reference(sketch), reference, "sketch_reference")
    picture_fast._PAINTERS.clear()
    assert_same(sketch_to_array(sketch), reference, "fast, first time")
    assert_same(sketch_to_array(sketch), reference, "fast, from cache")
    again = Sketch(320, 120)
    draw(again)
    again.ops.reverse()  # the same calls in another order draw another picture
    fig, ax = picture.new_canvas(320, 120)
    for op in again.ops:
        picture._make_artist(ax, op)
    assert_same(sketch_to_array(again), picture.to_array(fig), "reordered")


def test_glyph_images_are_reused_moved_by_whole_pixels():
    """The fast path keeps FreeType's image of a glyph per position within its pixel and
    reuses it moved by whole pixels: the same strings at offsets of whole and of fractional
    pixels, in several fonts, are the reference's."""
    picture_fast._PAINTERS.clear()
    width, height = 400, 160
    painter = picture_fast.painter_for(width, height, "white")
    if painter.glyphs is None:
        pytest.skip("this matplotlib's glyph loop is not the one the glyph cache mirrors")

    def draw(ax, shift):
        for row, (size, weight, style) in enumerate(
                [(6.8, "normal", "normal"), (8.5, "bold", "normal"), (13, "bold", "italic"),
                 (7.5, "normal", "italic")]):
            for k, dx in enumerate((0, 37, 0.25, 37.5, 80.7)):
                ax.text(5 + dx + 90 * (k // 2) + shift, 15 + 35 * row + 0.4 * k,
                        "Pending: AQWmgj 0123#", fontsize=size, fontweight=weight,
                        style=style, va="center")

    for shift in (0, 3, 0.6):
        sketch = Sketch(width, height)
        draw(sketch, shift)
        fig, ax = picture.new_canvas(width, height)
        draw(ax, shift)
        assert_same(sketch_to_array(sketch), picture.to_array(fig), f"shift {shift}")


def test_sketch_refuses_what_it_could_not_replay_the_same():
    sketch = Sketch(10, 10)
    with pytest.raises(ValueError, match="explicit color"):
        sketch.plot((0, 1), (0, 1))  # the colour cycle depends on the lines before
    with pytest.raises(TypeError, match="shapes"):
        from matplotlib import patches

        sketch.add_patch(patches.Circle((1, 1), 1))
