"""Env ids for PettingZoo's and Gymnasium's registries.

``import primeval`` registers, for every game of :data:`primeval.envs.games.GAMES`:

* AEC (``pettingzoo.make("aec", id, **kwargs)``): ``primeval/primordial_soup-v1``,
  ``primeval/origin-v0`` (each game's ``env()``, with PettingZoo's safety wrappers);
* Gymnasium (``gymnasium.make(id, **kwargs)``): ``primeval/PrimordialSoup-v1``,
  ``primeval/Origin-v0``, the single-agent view with opponents inside ``step()``
  (``primeval.training.gym_env``); and the benchmark's ``primeval/PrimordialSoup-vsZoo-v1``,
  ``primeval/Origin-vsZoo-v0``, whose other seats are a benchmark task's zoo opponents.

Registration waits for the registry's library: ``import primeval`` registers with
Gymnasium and PettingZoo at once when they are already imported, and otherwise as soon as
they are. So importing a game's rules (``primeval.envs.origin.rules``) loads neither library,
while ``import primeval; import gymnasium; gymnasium.make("primeval/Origin-v0")`` works.

PettingZoo's registry (``pettingzoo.make``) arrived in PettingZoo 1.27. On an older
PettingZoo (1.24-1.26, which e.g. AgileRL 2.58 requires) the AEC ids are not registered with
it and everything else works; :func:`register_pettingzoo` called directly raises
:class:`PettingZooRegistryMissing` saying so.

:func:`make` builds either kind by id without going through a registry.
"""

from __future__ import annotations

import functools
import importlib
import importlib.abc
import importlib.util
import sys
from dataclasses import dataclass
from typing import Any

from primeval.envs.games import GAMES


@dataclass(frozen=True)
class EnvEntry:
    """One registered id: ``kind`` is ``"aec"`` (PettingZoo) or ``"gymnasium"``."""

    id: str
    kind: str
    entry_point: str
    kwargs: dict[str, Any]
    arguments: str


ENTRIES: tuple[EnvEntry, ...] = (
    *(EnvEntry(g.aec_id, "aec", f"{g.module_name}:env", {}, g.env_arguments)
      for g in GAMES.values()),
    *(EnvEntry(g.gym_id, "gymnasium", "primeval.training.gym_env:make", {"game": g.name},
               f"num_players={g.default_players}, opponent='random'|'heuristic'|'ppo:PATH' "
               "(or a list, one per seat), obs_encoder, learner_seat=None (random), "
               "shaping=0.0, shaping_sources=None (weights of the sources of points, "
               "where the game has them), illegal_action='lose'|'random'|'raise', "
               "render_mode, "
               f"**{g.title.replace(' ', '')}Config fields")
      for g in GAMES.values()),
    *(EnvEntry(f"primeval/{g.gym_name}-vsZoo-v{g.version}", "gymnasium",
               "primeval.training.gym_env:make_vs_zoo", {"game": g.name},
               f"task=the game's {g.default_players}-player benchmark task (e.g. "
               "'soup-3p', 'origin-2p'): the other seats are that task's zoo opponents; "
               "obs_encoder, learner_seat=None (random), seed=0 (the opponents'), "
               "illegal_action, render_mode")
      for g in GAMES.values()),
)
BY_ID = {e.id: e for e in ENTRIES}


def register_gymnasium() -> None:
    """Register the Gymnasium ids (idempotent). ``gymnasium.make`` wraps them last in
    ``ExposeActionMasks``, so ``env.action_masks()`` works on what it returns."""
    import gymnasium
    from gymnasium.envs.registration import WrapperSpec

    masks = WrapperSpec("ExposeActionMasks",
                        "primeval.wrappers.single_agent:ExposeActionMasks", {})
    for entry in ENTRIES:
        if entry.kind == "gymnasium" and entry.id not in gymnasium.registry:
            gymnasium.register(entry.id, entry_point=entry.entry_point,
                               kwargs=dict(entry.kwargs), additional_wrappers=(masks,))


class PettingZooRegistryMissing(ImportError):
    """The installed PettingZoo has no env registry (``pettingzoo.make`` came in 1.27)."""


def _pettingzoo_registry():
    """PettingZoo's ``env_registry.registration`` module, or None before PettingZoo 1.27."""
    try:
        from pettingzoo.env_registry import registration
    except ModuleNotFoundError as error:
        if not (error.name or "").startswith("pettingzoo.env_registry"):
            raise
        return None
    return registration


def pettingzoo_registry_missing() -> str | None:
    """Why the AEC ids are not in PettingZoo's registry, or None when they can be."""
    if _pettingzoo_registry() is not None:
        return None
    import pettingzoo

    aec_ids = ", ".join(e.id for e in ENTRIES if e.kind == "aec")
    return (f"PettingZoo {getattr(pettingzoo, '__version__', '?')} has no env registry "
            f"(pettingzoo.make needs PettingZoo >= 1.27), so {aec_ids} are not registered "
            "with it; build them with primeval.make(id) or the game module's env() "
            "(primeval.envs.origin_v0.env()), or install pettingzoo>=1.27")


def register_pettingzoo(*, required: bool = True) -> bool:
    """Register the AEC ids with PettingZoo's registry (idempotent).

    Args:
        required: on a PettingZoo without a registry (before 1.27), raise
            :class:`PettingZooRegistryMissing` if True, else register nothing (what
            ``import primeval`` does, so that the rest works on such a PettingZoo).

    Returns:
        Whether the ids are in PettingZoo's registry.
    """
    registry = _pettingzoo_registry()
    if registry is None:
        if required:
            raise PettingZooRegistryMissing(pettingzoo_registry_missing())
        return False
    for entry in ENTRIES:
        if entry.kind == "aec" and entry.id not in registry.aec_registry:
            registry.register("aec", entry.id, entry.entry_point, kwargs=dict(entry.kwargs))
    return True


def register_envs() -> None:
    """Register every id now (imports Gymnasium and PettingZoo).

    Raises:
        PettingZooRegistryMissing: the installed PettingZoo is older than 1.27 (the
            Gymnasium ids are registered all the same).
    """
    register_gymnasium()
    register_pettingzoo()


# On import, a PettingZoo without a registry is skipped rather than refused.
_REGISTER = {"gymnasium": register_gymnasium,
             "pettingzoo": functools.partial(register_pettingzoo, required=False)}


class _RegisterOnImport(importlib.abc.MetaPathFinder):
    """Registers with a registry's library right after that library is first imported."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in _pending():
            return None
        spec = _find_spec_without(self, fullname)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        exec_module = loader.exec_module

        def exec_then_register(module):
            exec_module(module)
            _done.add(fullname)
            _REGISTER[fullname]()

        loader.exec_module = exec_then_register
        return spec


_done: set[str] = set()


def _pending() -> set[str]:
    return set(_REGISTER) - _done


def _find_spec_without(finder: importlib.abc.MetaPathFinder, fullname: str):
    installed = finder in sys.meta_path
    if installed:
        sys.meta_path.remove(finder)
    try:
        return importlib.util.find_spec(fullname)
    finally:
        if installed:
            sys.meta_path.insert(0, finder)


def register_when_imported() -> None:
    """Register with each registry's library now if it is imported, else once it is."""
    for name, register in _REGISTER.items():
        if name in sys.modules:
            _done.add(name)
            register()
    if _pending() and not any(isinstance(f, _RegisterOnImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _RegisterOnImport())


def make(env_id: str, **kwargs: Any):
    """Build a registered env by id without a registry (AEC or Gymnasium single-agent)."""
    try:
        entry = BY_ID[env_id]
    except KeyError:
        raise ValueError(f"unknown env id {env_id!r}; ids: {sorted(BY_ID)}") from None
    module, attr = entry.entry_point.split(":")
    factory = getattr(importlib.import_module(module), attr)
    return factory(**{**entry.kwargs, **kwargs})


__all__ = ["BY_ID", "ENTRIES", "EnvEntry", "PettingZooRegistryMissing", "make",
           "pettingzoo_registry_missing", "register_envs", "register_gymnasium",
           "register_pettingzoo", "register_when_imported"]
