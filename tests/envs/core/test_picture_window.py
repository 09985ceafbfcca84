"""``render_mode="human"``: the game's picture in a pygame-ce window, drawn off screen here
(``SDL_VIDEODRIVER=dummy``), and pygame-ce as the only ``import pygame``."""

from __future__ import annotations

import copy
import importlib.metadata
import pickle
import re
import tomllib
from pathlib import Path

import numpy as np
import pytest

from primeval.envs.core.picture_window import PictureWindow, WindowError, window_pixels
from primeval.envs.games import GAMES

pytest.importorskip("pygame")

ROOT = Path(__file__).resolve().parents[3]
PICTURE_GAMES = sorted(name for name, game in GAMES.items() if game.picture)


@pytest.fixture(autouse=True)
def _headless(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    yield
    import pygame

    pygame.display.quit()


@pytest.mark.parametrize("game", PICTURE_GAMES)
def test_window_shows_the_picture_after_render_and_after_every_step(game):
    env = GAMES[game].module().env(num_players=3, render_mode="human")
    env.reset(seed=3)
    raw = env.unwrapped
    assert env.render() is None
    assert np.array_equal(window_pixels(), raw.view.to_rgb_array(raw.game_state))
    for _ in range(3):  # step() draws the new state by itself
        env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[-1]))
        assert np.array_equal(window_pixels(), raw.view.to_rgb_array(raw.game_state))
    env.close()
    with pytest.raises(WindowError, match="no window is open"):
        window_pixels()


def test_window_scales_the_picture_to_its_size():
    import pygame

    window = PictureWindow("test")
    picture = np.zeros((40, 60, 3), dtype=np.uint8)
    picture[:, 30:] = (200, 10, 20)  # right half red
    window.show(picture)
    assert window_pixels().shape == (40, 60, 3)
    pygame.display.set_mode((120, 80))  # the user made the window twice as big
    window.show(picture)
    shown = window_pixels()
    assert shown.shape == (80, 120, 3)
    assert tuple(shown[40, 10]) == (0, 0, 0) and tuple(shown[40, 110]) == (200, 10, 20)
    window.close()
    assert not window.is_open


def test_window_refuses_what_is_not_a_picture():
    window = PictureWindow()
    for bad in (
        np.zeros((4, 4), dtype=np.uint8),
        np.zeros((4, 4, 3), dtype=np.float32),
        np.zeros((0, 4, 3), dtype=np.uint8),
    ):
        with pytest.raises(ValueError, match=r"\(H, W, 3\) uint8"):
            window.show(bad)
    assert not window.is_open


def test_env_with_an_open_window_clones_and_pickles():
    env = GAMES["primordial_soup"].raw_env(3, render_mode="human")
    env.reset(seed=1)
    env.render()
    twin = env.clone()
    assert twin.get_state() == env.get_state()
    again = pickle.loads(pickle.dumps(env))
    assert again.get_state() == env.get_state()
    assert not copy.deepcopy(env._window).is_open  # a copy opens its own window
    env.close()


def test_a_view_without_picture_prints_its_text_in_human_mode(capsys):
    from tests.thirdgame.env import raw_env

    env = raw_env(render_mode="human")
    env.reset(seed=0)
    env.render()
    assert capsys.readouterr().out.strip() == env.view.to_text(env.game_state).strip()
    assert getattr(env, "_window", None) is None


def test_pygame_ce_is_the_only_pygame():
    """The window draws with pygame-ce; ``pygame`` (the same import name) is never installed
    and no extra asks for it."""
    assert importlib.metadata.version("pygame-ce")
    with pytest.raises(importlib.metadata.PackageNotFoundError):
        importlib.metadata.distribution("pygame")
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    names = {
        re.split(r"[<>=!~\[; ]", req, maxsplit=1)[0].lower()
        for reqs in extras.values()
        for req in reqs
    }
    assert "pygame" not in names
    assert any(req.startswith("pygame-ce") for req in extras["window"])
    pins = (ROOT / "constraints.txt").read_text().splitlines()
    assert not any(line.lower().startswith("pygame==") for line in pins)


def test_closing_the_window_and_showing_again():
    """The window's close button closes it (handled by pump_events, which a waiting program
    calls); the next render opens it again with the picture."""
    import pygame

    from primeval.envs.core.picture_window import pump_events

    env = GAMES["origin"].raw_env(2, render_mode="human")
    env.reset(seed=0)
    env.render()
    assert env._window.is_open
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    pump_events()
    assert not env._window.is_open
    with pytest.raises(WindowError, match="no window is open"):
        window_pixels()
    env.step(int(np.flatnonzero(env.action_mask(env.agent_selection))[0]))
    assert np.array_equal(window_pixels(), env.view.to_rgb_array(env.game_state))
    env.close()
