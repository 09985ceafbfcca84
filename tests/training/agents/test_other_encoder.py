"""A checkpoint trained on another encoder of the same game plays in any env of that game:
it reads the rules state through its own encoder, so agents of different encoders share one
tournament or league (``PolicyAgent.check_env_spec``)."""

from __future__ import annotations

import numpy as np
import pytest

from primeval.envs.core.agents import turns
from primeval.envs.games import make_raw_env
from primeval.training import cli
from primeval.training.agents.checkpoint import CheckpointError
from primeval.training.agents.policy import PolicyAgent
from primeval.training.evaluate import tournament


def test_in_an_env_of_another_encoder_it_plays_as_in_its_own(untrained_checkpoint):
    path = untrained_checkpoint("primeval", (16,))
    own = PolicyAgent(path)
    own.check_env_spec({"game": "primordial_soup", "players": 3, "encoder": "flat"})
    assert own.uses_observation
    other = PolicyAgent(path)
    other.check_env_spec({"game": "primordial_soup", "players": 3, "encoder": "planes"})
    assert not other.uses_observation
    flat = make_raw_env("primordial_soup", 3)
    flat.reset(seed=4)
    rng = np.random.default_rng(4)
    compared = 0
    for seat, name in turns(flat):
        mask = flat.action_mask(name).astype(bool)
        if mask.sum() > 1:
            observation = flat.observe(name)["observation"]
            assert other.act(None, mask, state=flat.game_state, seat=seat) == own.act(
                observation, mask, state=flat.game_state, seat=seat)
            rows = other.act_batch(None, mask[None], states=[flat.game_state], seats=[seat])
            assert int(rows[0]) == own.act(observation, mask)
            compared += 1
        flat.step(int(rng.choice(np.flatnonzero(mask))))
        if compared == 40:
            break
    assert compared == 40
    with pytest.raises(ValueError, match="reads its own encoder 'flat': act needs state="):
        other.act(None, mask)


def test_a_tournament_in_another_encoders_env_plays_the_same_games(untrained_checkpoint):
    path = untrained_checkpoint("primeval", (16,))
    specs = [f"ppo:{path}", "random", "heuristic"]
    results = {encoder: tournament("primordial_soup", 3, specs, 3, seed=9,
                                   obs_encoder=encoder)
               for encoder in ("flat", "planes")}
    for a, b in zip(results["flat"], results["planes"], strict=True):
        assert (a.games, a.wins, a.scores) == (b.games, b.wins, b.scores)


def test_another_game_or_player_count_is_still_refused(untrained_checkpoint):
    agent = PolicyAgent(untrained_checkpoint("primeval", (16,)))
    with pytest.raises(CheckpointError, match="players 3, not 4"):
        agent.check_env_spec({"game": "primordial_soup", "players": 4, "encoder": "planes"})
    with pytest.raises(CheckpointError, match="game 'primordial_soup', not 'origin'"):
        agent.check_env_spec({"game": "origin", "players": 3, "encoder": "flat"})


def test_a_league_mixes_encoders(untrained_checkpoint, capsys):
    flat = untrained_checkpoint("primeval", (16,))
    planes = untrained_checkpoint("primeval", (16,), encoder="planes")
    code = cli.main(["league", f"ppo:{flat}", f"ppo:{planes}", "random", "heuristic",
                     "--games", "4", "--quiet"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert f"ppo:{flat}" in captured.out and f"ppo:{planes}" in captured.out


def test_a_checkpoint_of_another_encoder_cannot_choose_files_to_open(untrained_checkpoint,
                                                                    monkeypatch):
    """Encoding the states itself builds the checkpoint's own env: its saved env options
    are data from others, so options naming files are refused before anything is opened."""
    agent = PolicyAgent(untrained_checkpoint("primeval", (16,)))
    monkeypatch.setattr(agent, "env_spec", {**agent.env_spec,
                                            "env": {"map_file": "../../elsewhere.json"}})
    with pytest.raises(CheckpointError, match=r"names data file\(s\) \['map_file'\]"):
        agent.check_env_spec({"game": "primordial_soup", "players": 3, "encoder": "planes"})
    assert agent.encoder is None and agent.uses_observation
