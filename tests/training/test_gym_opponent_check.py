"""A wrong opponent checkpoint fails at ``gymnasium.make``, with the message the CLI gives
(issue 26 item 2): the checkpoint's env spec against the env's, then the spaces."""

from __future__ import annotations

from pathlib import Path

import gymnasium
import pytest

import primeval  # noqa: F401  (registers the ids)
from primeval.training.agents.checkpoint import CheckpointError, env_spec, save_model


def _checkpoint(folder: Path, game: str, players: int, spec: bool = True) -> Path:
    """An untrained MaskablePPO of ``game`` with ``players`` seats (with its env spec, or
    without one, as an old save)."""
    from sb3_contrib import MaskablePPO

    from primeval.envs.games import make_raw_env
    from primeval.wrappers.single_agent import SingleAgentEnv

    model = MaskablePPO(
        "MlpPolicy",
        SingleAgentEnv(make_raw_env(game, players)),
        n_steps=64,
        batch_size=64,
        seed=0,
        device="cpu",
        policy_kwargs={"net_arch": [8]},
    )
    path = folder / f"{game}_{players}p{'' if spec else '_nospec'}.zip"
    save_model(model, path, env_spec(game, players) if spec else None)
    return path


@pytest.fixture(scope="module")
def models(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("models")
    return {
        "soup4": _checkpoint(folder, "primordial_soup", 4),
        "soup4_nospec": _checkpoint(folder, "primordial_soup", 4, spec=False),
    }


def test_a_soup_model_in_origin_fails_at_make_naming_the_game(models):
    with pytest.raises(CheckpointError) as exc:
        gymnasium.make("primeval/Origin-v0", opponent=f"ppo:{models['soup4']}")
    message = str(exc.value)
    assert f"opponent 'ppo:{models['soup4']}'" in message
    assert "game 'primordial_soup', not 'origin'" in message


def test_a_four_player_model_in_three_player_soup_fails_at_make(models):
    with pytest.raises(CheckpointError, match="players 4, not 3"):
        gymnasium.make(
            "primeval/PrimordialSoup-v1",
            num_players=3,
            opponent=["random", f"ppo:{models['soup4']}"],
        )


def test_a_model_without_env_spec_is_checked_by_its_spaces(models):
    path = models["soup4_nospec"]
    with pytest.raises(
        CheckpointError,
        match=r"expects observations of shape \(\d+,\), "
        r"this env gives \(\d+,\)",
    ):
        gymnasium.make("primeval/Origin-v0", opponent=f"ppo:{path}")


def test_an_opponent_of_another_encoder_reads_the_state_itself(models):
    """The learner's encoder is the env's; an opponent trained on another encoder of the
    same game encodes the states it is given with its own (tests/training/agents/
    test_other_encoder.py: the same actions as in its own env)."""
    env = gymnasium.make(
        "primeval/PrimordialSoup-v1", obs_encoder="planes", opponent=f"ppo:{models['soup4']}"
    )
    obs, info = env.reset(seed=0)
    assert obs.ndim == 3  # the learner's planes
    for _ in range(30):
        legal = info["action_mask"].nonzero()[0]
        obs, reward, terminated, truncated, info = env.step(int(legal[0]))
        if terminated or truncated:
            obs, info = env.reset()
    env.close()


def test_the_right_model_builds_and_plays(models):
    env = gymnasium.make(
        "primeval/PrimordialSoup-v1",
        num_players=4,
        opponent=f"ppo:{models['soup4']}",
        learner_seat=1,
    )
    obs, info = env.reset(seed=0)
    mask = env.unwrapped.action_masks()
    env.step(int(mask.nonzero()[0][0]))
    env.close()


def test_a_zoo_member_is_an_opponent_by_name():
    env = gymnasium.make("primeval/PrimordialSoup-v1", num_players=4,
                         opponent=["zoo:soup-4p/ppo", "zoo:soup-4p/heuristic"])
    obs, info = env.reset(seed=3)
    for _ in range(20):
        legal = info["action_mask"].nonzero()[0]
        obs, reward, terminated, truncated, info = env.step(int(legal[0]))
        if terminated or truncated:
            obs, info = env.reset()
    with pytest.raises(CheckpointError, match="opponent 'zoo:soup-4p/ppo' cannot play"):
        gymnasium.make("primeval/Origin-v0", opponent="zoo:soup-4p/ppo")
