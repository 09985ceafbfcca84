"""Registries: PettingZoo ids, Gymnasium ids, primeval.make."""

from __future__ import annotations

import gymnasium
import numpy as np
import pettingzoo
import pytest

import primeval
from primeval.registration import ENTRIES


@pytest.mark.parametrize(("env_id", "players"), [("primeval/primordial_soup-v1", 3),
                                                  ("primeval/origin-v0", 4)])
def test_pettingzoo_make(env_id, players):
    env = pettingzoo.make("aec", env_id, num_players=players)
    env.reset(seed=0)
    assert len(env.possible_agents) == players
    same = primeval.make(env_id, num_players=players)
    same.reset(seed=0)
    assert np.array_equal(env.observe(env.agent_selection)["observation"],
                          same.observe(same.agent_selection)["observation"])


@pytest.mark.parametrize(("env_id", "players"), [("primeval/PrimordialSoup-v1", 4),
                                                  ("primeval/Origin-v0", 3)])
def test_gymnasium_make_single_agent(env_id, players):
    env = gymnasium.make(env_id, num_players=players, opponent="random")
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs) and "seat" in info
    mask = env.unwrapped.action_masks()
    obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(mask)[0]))
    assert env.observation_space.contains(obs)


def test_sb3_make_vec_env():
    from stable_baselines3.common.env_util import make_vec_env

    venv = make_vec_env("primeval/PrimordialSoup-v1", n_envs=2,
                        env_kwargs={"num_players": 4, "opponent": "heuristic"})
    assert venv.reset().shape[0] == 2
    masks = venv.env_method("action_masks")
    venv.step(np.array([int(np.flatnonzero(m)[0]) for m in masks]))
    venv.close()


def test_unknown_id_is_refused():
    with pytest.raises(ValueError, match="unknown env id"):
        primeval.make("primeval/chess-v0")


def test_every_entry_is_registered():
    from pettingzoo.env_registry.registration import aec_registry

    for entry in ENTRIES:
        registry = aec_registry if entry.kind == "aec" else gymnasium.registry
        assert entry.id in registry


def test_primeval_list_prints_every_id(capsys):
    from primeval.training import cli

    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    for entry in ENTRIES:
        assert entry.id in out


def _fresh(code: str) -> str:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize("order", ["primeval first", "libraries first"])
def test_ids_are_registered_whichever_is_imported_first(order):
    imports = ["import primeval", "import gymnasium", "import pettingzoo"]
    if order == "libraries first":
        imports.reverse()
    out = _fresh("; ".join(imports) + "\n"
                 "from pettingzoo.env_registry.registration import aec_registry\n"
                 "print(sorted(k for k in gymnasium.registry if k.startswith('primeval/')),"
                 " sorted(k for k in aec_registry if k.startswith('primeval/')))")
    expected = [sorted(e.id for e in ENTRIES if e.kind == kind) for kind in ("gymnasium", "aec")]
    assert out == f"{expected[0]} {expected[1]}"


def test_import_primeval_alone_loads_no_registry_library():
    out = _fresh("import sys, primeval\n"
                 "print([m for m in ('gymnasium', 'pettingzoo') if m in sys.modules])")
    assert out == "[]"
