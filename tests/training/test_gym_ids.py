"""The Gymnasium ids (``primeval/PrimordialSoup-v1``, ``primeval/Origin-v0``) as users build
them, ``gymnasium.make(id)``, against the real libraries: Gymnasium's and SB3's checkers,
rendering, action masks through make's wrappers, the illegal-action policies, an SB3
``SubprocVecEnv`` whose workers never ran ``import primeval``, and sb3-contrib's MaskablePPO.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest

import primeval  # noqa: F401  (registers the ids)
from primeval.envs.core.errors import IllegalActionError, InvalidActionTypeError

IDS = ["primeval/PrimordialSoup-v1", "primeval/Origin-v0"]
ROOT = Path(__file__).resolve().parents[2]
#: Gymnasium's check_env warns that it is given a wrapped env: make's result is one.
WRAPPED = "is different from the unwrapped version"


def _warnings_of(check) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check()
    return [str(w.message) for w in caught if WRAPPED not in str(w.message)]


@pytest.mark.parametrize("env_id", IDS)
def test_gymnasium_check_env_passes_on_make(env_id):
    """Gymnasium's check_env, which steps with ``action_space.sample()`` (masked-out actions
    included) and renders every declared mode, passes without a warning on what
    ``gymnasium.make`` returns and on the env inside."""
    from gymnasium.utils.env_checker import check_env

    no_picture = importlib.util.find_spec("matplotlib") is None  # rgb_array draws with it
    assert _warnings_of(lambda: check_env(gymnasium.make(env_id),
                                          skip_render_check=no_picture)) == []
    assert _warnings_of(lambda: check_env(gymnasium.make(env_id).unwrapped,
                                          skip_render_check=True)) == []


@pytest.mark.parametrize("env_id", IDS)
def test_sb3_check_env_passes_on_make(env_id):
    """Stable-Baselines3's check_env passes without a warning."""
    from stable_baselines3.common.env_checker import check_env

    assert _warnings_of(lambda: check_env(gymnasium.make(env_id), warn=True)) == []


@pytest.mark.parametrize("env_id", IDS)
def test_rgb_array_gives_an_rgb_frame(env_id):
    """``render_mode="rgb_array"`` through make: an (H, W, 3) uint8 frame; the metadata
    lists the three modes and a ``render_fps``."""
    pytest.importorskip("matplotlib")
    env = gymnasium.make(env_id, render_mode="rgb_array")
    assert set(env.metadata["render_modes"]) == {"ansi", "human", "rgb_array"}
    assert env.metadata["render_fps"] > 0
    env.reset(seed=0)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    assert frame.shape[0] > 100 and frame.shape[1] > 100
    text = gymnasium.make(env_id, render_mode="ansi")
    text.reset(seed=0)
    assert isinstance(text.render(), str)


@pytest.mark.parametrize("env_id", IDS)
def test_action_masks_reachable_through_makes_wrappers(env_id):
    """``env.action_masks()`` on make's result, ``get_wrapper_attr`` through further wrappers,
    sb3-contrib's ``get_action_masks`` and ``info["action_mask"]`` all give the learner's
    legal mask."""
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    env = gymnasium.make(env_id)
    outer = gymnasium.wrappers.RecordEpisodeStatistics(env)
    obs, info = outer.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(20):
        game = env.unwrapped.game
        legal = game.action_mask(env.unwrapped.learner, dtype=bool)
        assert legal.any()
        for mask in (env.action_masks(), outer.get_wrapper_attr("action_masks")(),
                     get_action_masks(outer), info["action_mask"].astype(bool)):
            assert mask.dtype == bool and np.array_equal(mask, legal)
        assert info["action_mask"].dtype == np.int8
        obs, reward, terminated, truncated, info = outer.step(int(rng.choice(np.flatnonzero(legal))))
        if terminated or truncated:
            assert not env.action_masks().any() and not info["action_mask"].any()
            obs, info = outer.reset()
    assert is_masking_supported(outer)


def _to_an_illegal_action(env_id, seed=0, **kwargs):
    env = gymnasium.make(env_id, **kwargs)
    obs, info = env.reset(seed=seed)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    return env, obs, illegal


@pytest.mark.parametrize("env_id", IDS)
def test_an_illegal_action_loses_the_game_by_default(env_id):
    """The ids' default ``illegal_action="lose"``: the episode ends (terminated, not
    truncated) with -1 and ``info["illegal_action"]``, the masks are empty, the next step
    asks for a reset, and the next episode plays normally."""
    env, obs, illegal = _to_an_illegal_action(env_id)
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_action"] == illegal and "scores" not in info
    assert env.observation_space.contains(obs)
    assert not env.action_masks().any() and not info["action_mask"].any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(illegal)
    obs, info = env.reset(seed=1)
    assert env.action_masks().any() and "illegal_action" not in info
    obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert "illegal_action" not in info

    env, obs, illegal = _to_an_illegal_action(env_id, illegal_reward=-5.0)
    assert env.step(illegal)[1] == -5.0


@pytest.mark.parametrize("env_id", IDS)
def test_illegal_action_random_plays_a_legal_one_instead(env_id):
    """``illegal_action="random"``: a legal action drawn from the env's generator is played;
    the info names both; the same seed replays the same choice."""
    plays = []
    for _ in range(2):
        env, obs, illegal = _to_an_illegal_action(env_id, illegal_action="random")
        legal = env.action_masks()
        obs, reward, terminated, truncated, info = env.step(illegal)
        assert info["illegal_action"] == illegal and legal[info["played_action"]]
        assert not terminated and env.action_masks().any()
        plays.append((info["played_action"], obs))
    assert plays[0][0] == plays[1][0] and np.array_equal(plays[0][1], plays[1][1])


@pytest.mark.parametrize("env_id", IDS)
def test_illegal_action_raise_refuses_and_changes_nothing(env_id):
    """``illegal_action="raise"``: IllegalActionError naming the action and the legal
    choices; the env is as it was, and a legal action then plays."""
    env, obs, illegal = _to_an_illegal_action(env_id, illegal_action="raise")
    before = env.unwrapped.game.get_state()
    with pytest.raises(IllegalActionError, match=rf"illegal action {illegal} .*legal: "):
        env.step(illegal)
    assert env.unwrapped.game.get_state() == before
    env.step(int(np.flatnonzero(env.action_masks())[0]))


@pytest.mark.parametrize("policy", ["lose", "random", "raise"])
def test_actions_outside_the_action_space_always_raise(policy):
    """A float or an id out of range is no action of the space: it raises under every
    policy, and nothing changes."""
    env, obs, illegal = _to_an_illegal_action(IDS[0], illegal_action=policy)
    n = env.action_space.n
    with pytest.raises(InvalidActionTypeError):
        env.step(1.5)
    with pytest.raises(IllegalActionError, match=rf"out of range \[0, {n}\)"):
        env.step(n)
    assert env.action_masks().any()


def test_an_unknown_policy_is_refused():
    with pytest.raises(ValueError, match="illegal_action='forfeit'.*'lose', 'random', 'raise'"):
        gymnasium.make(IDS[0], illegal_action="forfeit")


def docs_block(containing: str) -> str:
    """The Python block of docs/integrations.md that contains ``containing``."""
    text = (ROOT / "docs" / "integrations.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)
              if containing in b]
    assert len(blocks) == 1, f"one block of docs/integrations.md should contain {containing!r}"
    return blocks[0]


@pytest.mark.slow  # a fresh interpreter and a forkserver importing SB3 and torch
def test_subproc_vec_env_workers_built_by_id_in_a_main_guard(tmp_path):
    """docs/integrations.md's SubprocVecEnv script, run as a script: ``import primeval`` only
    inside ``if __name__ == "__main__"``, two SB3 worker processes (forkserver: they import
    the script but not its main block) build ``gymnasium.make("primeval:...")``."""
    pytest.importorskip("stable_baselines3")
    script = tmp_path / "train.py"
    script.write_text(docs_block("SubprocVecEnv"), encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "masks (2, 290)" in done.stdout


@pytest.mark.parametrize("env_id", IDS)
def test_maskable_ppo_learns_on_make(env_id):
    """sb3-contrib's MaskablePPO learns a few hundred steps on ``gymnasium.make(id)`` as it
    is, finding the masks itself (docs/integrations.md shows the same)."""
    from sb3_contrib import MaskablePPO

    env = gymnasium.make(env_id)
    model = MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=64, n_epochs=1, seed=0,
                        device="cpu")
    model.learn(total_timesteps=256)
    assert model.num_timesteps == 256
    obs, info = env.reset(seed=1)
    action, _ = model.predict(obs, action_masks=env.action_masks())
    assert env.action_masks()[int(action)]
