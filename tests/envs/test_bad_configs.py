"""Bad game configs through ``env()``, ``raw_env()`` and the registered id: a ValueError
naming the field and what is allowed."""

from __future__ import annotations

import pytest

from primeval.envs.games import GAMES
from primeval.registration import make

BAD_GAME_CONFIGS = [
    ("primordial_soup", {"bogus": 1}, "unknown PrimordialSoupConfig field(s) ['bogus']"),
    ("primordial_soup", {"num_player": 3}, "unknown PrimordialSoupConfig field(s) "
                                           "['num_player']"),
    ("primordial_soup", {"num_players": 5}, "PrimordialSoupConfig.num_players=5 is invalid; "
                                            "allowed: 3 or 4"),
    ("primordial_soup", {"board_layout": "Z"}, "PrimordialSoupConfig.board_layout='Z'"),
    ("primordial_soup", {"start_bp": -1}, "PrimordialSoupConfig.start_bp=-1 is invalid"),
    ("primordial_soup", {"six_allows_stay": "yes"}, "PrimordialSoupConfig.six_allows_stay"),
    ("primordial_soup", {"environment_deck": [["X", 3], ["N", 4]]}, "environment_deck"),
    ("origin", {"bogus": 1}, "unknown OriginConfig field(s) ['bogus']"),
    ("origin", {"num_players": 1}, "OriginConfig.num_players=1 is invalid; allowed: 2, 3 "
                                   "or 4"),
    ("origin", {"map_file": 3}, "OriginConfig.map_file=3 is invalid"),
    ("origin", {"score_tiebreak": "yes"}, "OriginConfig.score_tiebreak='yes' is invalid"),
    ("primordial_soup", {"obs_encoder": "pixels"}, "pixels"),
    ("origin", {"obs_encoder": "planes"}, "planes"),
    ("origin", {"render_mode": "rgb"}, "unknown render_mode 'rgb'"),
    ("primordial_soup", {"max_steps": 0}, "max_steps must be a positive int or None, got 0"),
    ("origin", {"max_steps": 2.5}, "max_steps must be a positive int or None, got 2.5"),
    ("primordial_soup", {"reward_mode": "money"}, "money"),
]


@pytest.mark.parametrize(("game", "kwargs", "message"), BAD_GAME_CONFIGS,
                         ids=[f"{g}-{k}" for g, k, _ in BAD_GAME_CONFIGS])
@pytest.mark.parametrize("build", ["env", "raw_env", "registry"])
def test_bad_game_config(game, kwargs, message, build):
    """Unknown fields and bad values: a ValueError naming the field (and what is allowed),
    through ``env()``, ``raw_env()`` and the registered id."""
    module = GAMES[game]
    factory = {"env": module.env, "raw_env": module.raw_env,
               "registry": lambda **kw: make(module.aec_id, **kw)}[build]
    with pytest.raises(ValueError) as err:
        factory(**kwargs)
    assert message in str(err.value)


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("wrong, meant", [("render", "render_mode"), ("encoder", "obs_encoder"),
                                          ("num_player", "num_players"),
                                          ("max_step", "max_steps")])
def test_a_misspelt_keyword_names_the_env_keywords_and_the_nearest(game, wrong, meant):
    """A misspelt keyword lists the env's own keywords beside the config's fields and says
    which one was probably meant."""
    with pytest.raises(ValueError) as err:
        GAMES[game].env(**{wrong: "x"})
    message = str(err.value)
    assert f"{wrong!r}: did you mean {meant!r}?" in message
    assert "render_mode" in message and "obs_encoder" in message and "known fields" in message


def test_the_builders_keyword_list_is_its_signature():
    """ENV_KEYWORDS (what the message lists) is exactly what EnvBuilder.raw_env takes."""
    import inspect

    from primeval.envs.core.builder import ENV_KEYWORDS, EnvBuilder

    params = inspect.signature(EnvBuilder.raw_env).parameters
    named = [p for p in params if p not in ("self", "config_overrides")]
    assert tuple(named) == ENV_KEYWORDS
