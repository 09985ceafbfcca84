"""The integration forms are PettingZoo wrappers over the AEC core (``envs/core/forms/``),
composed by the env keywords: each keyword adds its wrapper and nothing else, the core has
none of the forms, and each wrapper gives its form over a bare core by itself."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.utils.wrappers import BaseWrapper

from primeval.envs.core.aec import TurnBasedAECEnv
from primeval.envs.core.forms import (
    ActionMaskInInfoWrapper,
    BoxObservationWrapper,
    FormWrapper,
    NumericInfosWrapper,
    PrivateStateWrapper,
)
from primeval.envs.games import GAMES
from primeval.envs.origin.env import BUILDER as ORIGIN
from primeval.envs.primordial_soup.env import BUILDER as SOUP

PLAYERS = {"primordial_soup": 3, "origin": 2}


def chain(env) -> list:
    """The wrappers from the outside in (the core not included)."""
    out = []
    while isinstance(env, BaseWrapper):
        out.append(env)
        env = env.env
    return out


def forms(env) -> set[type]:
    return {type(w) for w in chain(env) if isinstance(w, FormWrapper)}


def bare_core(builder, info_names=True) -> TurnBasedAECEnv:
    """A game's core built by hand, without the builder's forms."""
    rules = builder.rules(builder.config(num_players=3))
    return builder.core(rules, builder.encoders["flat"](rules), builder.view(rules),
                        info_names=builder.info_names if info_names else None)


@pytest.mark.parametrize(("kwargs", "expected"), [
    ({}, set()),
    ({"mask_in_info": True}, {ActionMaskInInfoWrapper}),
    ({"mask_in_info": False}, set()),
    ({"observation_form": "box"}, {BoxObservationWrapper, ActionMaskInInfoWrapper}),
    ({"info_form": "ids"}, {NumericInfosWrapper}),
    ({"state_private": True}, {PrivateStateWrapper}),
    ({"observation_form": "box", "info_form": "ids", "state_private": True},
     {BoxObservationWrapper, ActionMaskInInfoWrapper, NumericInfosWrapper,
      PrivateStateWrapper}),
])
@pytest.mark.parametrize("name", list(GAMES))
def test_each_keyword_composes_its_wrapper_over_the_core(name, kwargs, expected):
    """``env(...)`` and ``raw_env(...)`` stack exactly the wrappers of the forms asked for
    over the core; without a form ``raw_env`` is the core itself."""
    game = GAMES[name]
    wrapped, raw = game.env(PLAYERS[name], **kwargs), game.raw_env(PLAYERS[name], **kwargs)
    assert forms(wrapped) == forms(raw) == expected
    assert type(wrapped.unwrapped) is type(raw.unwrapped)
    assert isinstance(raw.unwrapped, TurnBasedAECEnv)
    assert (raw is raw.unwrapped) == (not expected)


def test_the_core_has_no_form():
    """The adapter keeps the AEC core only: no form methods, no form keywords."""
    for method in ("_configure_forms", "_set_info_masks"):
        assert not hasattr(TurnBasedAECEnv, method)
    rules = SOUP.rules(SOUP.config(num_players=3))
    with pytest.raises(TypeError, match="observation_form"):
        TurnBasedAECEnv(rules, SOUP.encoders["flat"](rules), SOUP.view(rules),
                        observation_form="box")


@pytest.mark.parametrize("name", list(GAMES))
def test_under_a_form_the_core_keeps_its_own_forms(name):
    """With ``mask_in_info=True`` and ``info_form="ids"`` the env's infos hold the mask and
    ids; the core stepped directly sets its own infos again: names, no mask."""
    env = GAMES[name].env(PLAYERS[name], mask_in_info=True, info_form="ids")
    env.reset(seed=0)
    agent = env.agent_selection
    assert set(env.infos[agent]) == {"phase", "decision", "action_mask"}
    assert isinstance(env.infos[agent]["phase"], int)
    assert env.mask_in_info and not env.unwrapped.mask_in_info
    core = env.unwrapped
    core.step(int(np.flatnonzero(core.action_mask(agent))[0]))
    assert set(core.infos[core.agent_selection]) == {"phase", "decision"}
    assert isinstance(core.infos[core.agent_selection]["phase"], str)


@pytest.mark.parametrize("builder", [SOUP, ORIGIN], ids=["primordial_soup", "origin"])
def test_each_wrapper_over_a_bare_core(builder):
    """Each wrapper alone, over a core built by hand, gives its form of the core's game."""
    masks = ActionMaskInInfoWrapper(bare_core(builder))
    box = BoxObservationWrapper(bare_core(builder))
    ids = NumericInfosWrapper(bare_core(builder))
    plain = bare_core(builder)
    for env in (masks, box, ids, plain):
        env.reset(seed=4)
    agent = plain.agent_selection
    expected = plain.observe(agent)
    np.testing.assert_array_equal(masks.infos[agent]["action_mask"], expected["action_mask"])
    np.testing.assert_array_equal(box.observe(agent), expected["observation"])
    np.testing.assert_array_equal(box.infos[agent]["action_mask"], expected["action_mask"])
    assert box.observation_space(agent) == plain.observation_space(agent)["observation"]
    names = plain.unwrapped.info_names
    assert {k: names[k][v] for k, v in ids.infos[agent].items()} == plain.infos[agent]


def test_numeric_infos_need_the_tables():
    with pytest.raises(ValueError, match=r"needs the name tables \['phase', 'decision'\]"):
        NumericInfosWrapper(bare_core(SOUP, info_names=False))


def test_private_state_is_the_wrappers_and_the_core_keeps_the_public_one():
    """Origin's ``state_private=True``: the wrapper's state has every seat's private pieces
    on top of the core's public state, which it starts with."""
    env = GAMES["origin"].raw_env(3, state_private=True)
    env.reset(seed=2)
    private, public = env.state(), env.unwrapped.state()
    assert env.state_space.shape == private.shape and private.size > public.size
    assert env.unwrapped.state_space.shape == public.shape
    assert set(env.unwrapped.state_encoder.pieces) < set(env.state_encoder.pieces)


@pytest.mark.parametrize("name", list(GAMES))
def test_clone_keeps_the_forms_and_the_future_dice(name):
    """``clone()`` of an env in forms is the same forms over a copy of the game: stepped the
    same way, both see the same; stepping the clone leaves the env as it was."""
    env = GAMES[name].raw_env(PLAYERS[name], observation_form="box", info_form="ids")
    env.reset(seed=5)
    twin = env.clone()
    assert forms(twin) == forms(env) and twin.unwrapped is not env.unwrapped
    before = env.unwrapped.get_state()
    for _ in range(5):
        agent = twin.agent_selection
        twin.step(int(np.flatnonzero(twin.infos[agent]["action_mask"])[0]))
    assert env.unwrapped.get_state() == before
    for _ in range(5):
        agent = env.agent_selection
        env.step(int(np.flatnonzero(env.infos[agent]["action_mask"])[0]))
    assert env.unwrapped.get_state() == twin.unwrapped.get_state()
    np.testing.assert_array_equal(env.observe(env.agent_selection),
                                  twin.observe(twin.agent_selection))


@pytest.mark.parametrize("game", ["primordial_soup", "origin"])
def test_each_env_docstring_documents_the_forms_and_its_own_info_ids(game):
    """The forms' section is written once (``forms_doc``) and filled into each game's env
    docstring with that game's info id table: every phase and decision name appears, in a
    row under its id, and no placeholder is left unfilled."""
    import importlib

    module = importlib.import_module(f"primeval.envs.{game}.env")
    doc = module.__doc__
    assert "## Observation forms and infos" in doc and 'observation_form="dict"' in doc
    for key, names in module.INFO_NAMES.items():
        assert f"`{key}`" in doc
        for i, name in enumerate(names):
            if name:
                assert any(line.startswith(f"| {i} |") and f"`{name}`" in line
                           for line in doc.splitlines()), (key, name)
    assert "{forms}" not in doc and "{infos}" not in doc
