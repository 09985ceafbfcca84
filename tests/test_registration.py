"""Registries: PettingZoo ids, Gymnasium ids, primeval.make.

``make test-compat`` runs these on PettingZoo 1.24-1.26 too, which have no env registry
(``pettingzoo.make`` came in 1.27): there the AEC ids are skipped and the rest works.
"""

from __future__ import annotations

import importlib.util
import sys

import gymnasium
import numpy as np
import pettingzoo
import pytest

import primeval
from primeval import registration
from primeval.registration import ENTRIES, PettingZooRegistryMissing

PETTINGZOO_REGISTRY = importlib.util.find_spec("pettingzoo.env_registry") is not None
needs_pettingzoo_registry = pytest.mark.skipif(
    not PETTINGZOO_REGISTRY, reason=f"PettingZoo {pettingzoo.__version__} has no env registry")
AEC_IDS = sorted(e.id for e in ENTRIES if e.kind == "aec")
GYM_IDS = sorted(e.id for e in ENTRIES if e.kind == "gymnasium")


@needs_pettingzoo_registry
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


def test_gymnasium_make_passes_the_shaping_weights():
    """``shaping_sources`` reaches the single-agent view; a bad source is refused."""
    env = gymnasium.make("primeval/Origin-v0", shaping=0.1, shaping_sources={"tiles": 2})
    assert env.unwrapped.shaping_sources["tiles"] == 2.0
    assert env.unwrapped.shaping_sources["objectives"] == 1.0
    with pytest.raises(ValueError, match="unknown source 'tilez'"):
        gymnasium.make("primeval/Origin-v0", shaping=0.1, shaping_sources={"tilez": 2})


def test_sb3_make_vec_env():
    pytest.importorskip("stable_baselines3")
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
    assert all(env_id in gymnasium.registry for env_id in GYM_IDS)
    if PETTINGZOO_REGISTRY:
        from pettingzoo.env_registry.registration import aec_registry

        assert all(env_id in aec_registry for env_id in AEC_IDS)


@pytest.mark.parametrize("env_id", AEC_IDS)
def test_primeval_make_builds_the_aec_ids_on_any_pettingzoo(env_id):
    env = primeval.make(env_id)
    env.reset(seed=0)
    assert env.observe(env.agent_selection)["action_mask"].any()


def _without_pettingzoo_registry(monkeypatch) -> None:
    """Make ``pettingzoo.env_registry`` unimportable, as on PettingZoo 1.24-1.26."""
    for name in [m for m in sys.modules if m.startswith("pettingzoo.env_registry")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pettingzoo.env_registry", None)


def test_without_pettingzoos_registry_the_aec_ids_are_skipped_on_import(monkeypatch):
    """What ``import primeval`` does with an older PettingZoo: nothing, and no error."""
    _without_pettingzoo_registry(monkeypatch)
    assert registration.register_pettingzoo(required=False) is False
    registration.register_when_imported()  # both libraries imported: registers at once
    assert all(env_id in gymnasium.registry for env_id in GYM_IDS)


def test_without_pettingzoos_registry_asking_for_it_says_why(monkeypatch):
    _without_pettingzoo_registry(monkeypatch)
    reason = registration.pettingzoo_registry_missing()
    assert f"PettingZoo {pettingzoo.__version__} has no env registry" in reason
    assert all(env_id in reason for env_id in AEC_IDS) and "primeval.make(id)" in reason
    with pytest.raises(PettingZooRegistryMissing, match="pettingzoo.make needs PettingZoo >= 1.27"):
        registration.register_pettingzoo()
    with pytest.raises(ImportError, match="primeval.make"):
        registration.register_envs()


@needs_pettingzoo_registry
def test_with_pettingzoos_registry_nothing_is_missing():
    assert registration.pettingzoo_registry_missing() is None
    assert registration.register_pettingzoo() is True


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
                 "from primeval.registration import pettingzoo_registry_missing\n"
                 "if pettingzoo_registry_missing():\n"
                 "    aec_registry = {}\n"
                 "else:\n"
                 "    from pettingzoo.env_registry.registration import aec_registry\n"
                 "print(sorted(k for k in gymnasium.registry if k.startswith('primeval/')),"
                 " sorted(k for k in aec_registry if k.startswith('primeval/')))")
    # On a PettingZoo without a registry, importing both works and registers the Gymnasium ids.
    assert out == f"{GYM_IDS} {AEC_IDS if PETTINGZOO_REGISTRY else []}"


def test_import_primeval_alone_loads_no_registry_library():
    out = _fresh("import sys, primeval\n"
                 "print([m for m in ('gymnasium', 'pettingzoo') if m in sys.modules])")
    assert out == "[]"
