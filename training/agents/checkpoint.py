"""Saving and loading MaskablePPO checkpoints without unpickling anything.

An SB3 zip keeps its class parameters in a JSON entry, ``data``; the values JSON cannot hold
(the policy class, the spaces, schedules, buffers) are cloudpickled into it as
``{":serialized:": ...}``. ``MaskablePPO.load`` unpickles them, so a crafted zip runs any code
it likes the moment it is loaded. The package never does that by default:

* :func:`save_model` writes the zip as SB3 does plus one JSON entry of its own,
  ``primeval.json`` (:data:`ENTRY`): the policy class by name, the spaces, the policy's
  keyword arguments, the clipping and the episode buffers in plain JSON, and the env the
  model was trained on (:func:`env_spec`: game, version, players, encoder, env options).
* :func:`load_model` rebuilds every pickled entry of ``data`` from ``primeval.json``
  (through SB3's ``custom_objects``, so nothing is unpickled: the policy class comes from an
  allow-list, the spaces are rebuilt from their JSON), refuses a ``:serialized:`` entry it
  cannot rebuild, and lets SB3 read the weights with ``torch.load(weights_only=True)``. A
  zip that would need unpickling (no ``primeval.json``: a model saved by SB3 itself or by an
  older primeval; or a pickled entry not described) is refused with
  :class:`UntrustedCheckpointError`, naming ``--trust-checkpoint`` (the CLI) and
  ``trust_checkpoint=True`` (Python), which load it with ``MaskablePPO.load`` as it is.

Only trust a checkpoint you made yourself or got from someone you trust: see SECURITY.md.
"""

from __future__ import annotations

import json
import zipfile
from collections import deque
from pathlib import Path
from typing import Any

import numpy as np

#: The package's own entry in a checkpoint zip.
ENTRY = "primeval.json"
#: Version of :data:`ENTRY`'s layout.
FORMAT = 1
#: How to allow a checkpoint that needs unpickling, in every refusal.
TRUST_HINT = ("if you made it yourself or trust whoever did, load it with --trust-checkpoint "
              "(Python: trust_checkpoint=True), which unpickles it and so can run any code "
              "it holds")
#: Largest ``data`` or ``primeval.json`` entry read (bytes).
MAX_JSON_BYTES = 64 * 2**20
#: Entries of ``data`` that would replace what the model is built from, never taken from a
#: file (they are not saved by SB3; a zip naming them is crafted).
FORBIDDEN_KEYS = frozenset({"env", "policy", "device", "rollout_buffer", "replay_buffer",
                            "_logger", "_custom_logger", "_vec_normalize_env",
                            "_episode_storage"})


class CheckpointError(ValueError):
    """A checkpoint file is missing, truncated, not a MaskablePPO model, or of another env."""


class UntrustedCheckpointError(CheckpointError):
    """A checkpoint that can only be loaded by unpickling it (refused unless trusted)."""


# -- what is allowed ---------------------------------------------------------------------------


def _policy_classes() -> dict[str, type]:
    """The policy classes a checkpoint may name, by ``module.qualname``."""
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from primeval.training.ppo.masking import MaskedActorCriticPolicy
    from primeval.training.ppo.prior import PriorActorCriticPolicy
    from primeval.training.ppo.structured import StructuredActorCriticPolicy

    return {_class_name(c): c for c in (MaskableActorCriticPolicy, MaskedActorCriticPolicy,
                                        PriorActorCriticPolicy, StructuredActorCriticPolicy)}


def _kwarg_classes() -> dict[str, type]:
    """The classes a policy's keyword arguments may hold (activations, the optimiser)."""
    import torch

    classes = [torch.nn.Tanh, torch.nn.ReLU, torch.nn.ELU, torch.nn.LeakyReLU, torch.nn.GELU,
               torch.nn.SiLU, torch.nn.Sigmoid, torch.optim.Adam, torch.optim.AdamW,
               torch.optim.SGD, torch.optim.RMSprop]
    return {_class_name(c): c for c in classes}


def _class_name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


# -- the env spec --------------------------------------------------------------------------------


def env_spec(game: str, players: int, encoder: str = "flat",
             env: dict[str, Any] | None = None) -> dict[str, Any]:
    """The env a model plays: ``game``, its ``version``, ``players``, ``encoder`` and the
    rules config overrides ``env`` (as ``make_raw_env`` takes them)."""
    from primeval.envs.games import get_game

    entry = get_game(game)
    return {"game": entry.name, "version": int(entry.version), "players": int(players),
            "encoder": str(encoder), "env": dict(env or {})}


def spec_mismatch(saved: dict[str, Any], wanted: dict[str, Any]) -> str | None:
    """What differs between two env specs (``None`` when they match), e.g.
    ``"game origin, not primordial_soup"``; keys missing from ``wanted`` are not compared."""
    diffs = [f"{key} {saved.get(key)!r}, not {wanted[key]!r}"
             for key in ("game", "version", "players", "encoder", "env")
             if key in wanted and saved.get(key) != wanted[key]]
    return "; ".join(diffs) or None


# -- saving --------------------------------------------------------------------------------------


def _space_to_json(space: Any) -> dict[str, Any]:
    from gymnasium import spaces

    if isinstance(space, spaces.Box):
        return {"type": "Box", "shape": list(space.shape), "dtype": str(space.dtype),
                "low": space.low.tolist(), "high": space.high.tolist()}
    if isinstance(space, spaces.Discrete):
        return {"type": "Discrete", "n": int(space.n), "start": int(space.start)}
    if isinstance(space, spaces.MultiBinary):
        return {"type": "MultiBinary", "n": np.asarray(space.n).tolist()}
    if isinstance(space, spaces.MultiDiscrete):
        return {"type": "MultiDiscrete", "nvec": space.nvec.tolist(), "dtype": str(space.dtype)}
    if isinstance(space, spaces.Dict):
        return {"type": "Dict", "spaces": {k: _space_to_json(s) for k, s in space.spaces.items()}}
    raise TypeError(f"cannot describe the space {space!r} in JSON")


def _schedule_to_json(schedule: Any) -> float | None:
    """The constant of a constant schedule (SB3's ``FloatSchedule(ConstantSchedule(v))``)."""
    from stable_baselines3.common.utils import ConstantSchedule, FloatSchedule

    if schedule is None:
        return None
    if isinstance(schedule, (int, float)):
        return float(schedule)
    inner = schedule.value_schedule if isinstance(schedule, FloatSchedule) else schedule
    if isinstance(inner, ConstantSchedule):
        return float(inner.val)
    raise TypeError(f"cannot describe the schedule {schedule!r} in JSON")


def _kwargs_to_json(kwargs: dict[str, Any]) -> dict[str, Any]:
    classes = {c: n for n, c in _kwarg_classes().items()}
    out = {}
    for key, value in kwargs.items():
        if isinstance(value, type):
            if value not in classes:
                raise TypeError(f"policy_kwargs[{key!r}] = {value!r} is not an allowed class")
            out[key] = {":class:": classes[value]}
        else:
            json.dumps(value)  # TypeError for anything JSON cannot hold
            out[key] = value
    return out


def _buffer_to_json(buffer: Any) -> list | None:
    if buffer is None:
        return None
    return json.loads(json.dumps(list(buffer), default=lambda v: v.item()))


def describe(model: Any, spec: dict[str, Any] | None) -> dict[str, Any]:
    """The :data:`ENTRY` of ``model``: everything ``load_model`` needs instead of pickles."""
    policy_class = model.policy_class
    if isinstance(policy_class, str):  # "MlpPolicy" before the model is set up
        policy_class = type(model.policy)
    return {
        "format": FORMAT,
        "env_spec": spec,
        "policy_class": _class_name(policy_class),
        "observation_space": _space_to_json(model.observation_space),
        "action_space": _space_to_json(model.action_space),
        "policy_kwargs": _kwargs_to_json(model.policy_kwargs),
        "clip_range": _schedule_to_json(model.clip_range),
        "clip_range_vf": _schedule_to_json(model.clip_range_vf),
        "ep_info_buffer": _buffer_to_json(model.ep_info_buffer),
        "ep_success_buffer": _buffer_to_json(model.ep_success_buffer),
    }


def save_model(model: Any, path: str | Path, spec: dict[str, Any] | None = None) -> Path:
    """``model.save(path)`` plus :data:`ENTRY` (``spec``: the env, :func:`env_spec`)."""
    path = Path(path)
    entry = json.dumps(describe(model, spec))  # before writing: a failure leaves no file
    model.save(path)
    with zipfile.ZipFile(path, "a", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(ENTRY, entry)
    return path


# -- loading -------------------------------------------------------------------------------------


def _bad(path: Path, why: str) -> CheckpointError:
    return CheckpointError(f"checkpoint {path} cannot be loaded as a MaskablePPO model: {why}")


def _untrusted(path: Path, why: str) -> UntrustedCheckpointError:
    return UntrustedCheckpointError(f"checkpoint {path} cannot be loaded safely: {why}; "
                                    f"{TRUST_HINT}")


def _read_json(archive: zipfile.ZipFile, name: str, path: Path) -> Any:
    info = archive.getinfo(name)
    if info.file_size > MAX_JSON_BYTES:
        raise _bad(path, f"its {name} entry is {info.file_size} bytes (at most "
                         f"{MAX_JSON_BYTES})")
    try:
        return json.loads(archive.read(name).decode("utf-8"))
    except (ValueError, RecursionError) as exc:
        raise _bad(path, f"its {name} entry is not JSON: {type(exc).__name__}") from None


def read_entries(path: str | Path) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The ``data`` and :data:`ENTRY` of a checkpoint zip (``None`` without the latter),
    read as JSON only.

    Raises:
        CheckpointError: No such file, not a zip, no ``data``, not JSON.
    """
    path = Path(path)
    if not path.is_file():
        raise CheckpointError(f"checkpoint {path} does not exist")
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
            if "data" not in names:
                raise _bad(path, "it has no data entry")
            data = _read_json(archive, "data", path)
            entry = _read_json(archive, ENTRY, path) if ENTRY in names else None
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
        if isinstance(exc, CheckpointError):
            raise
        raise _bad(path, f"{type(exc).__name__}: {exc}") from None
    if not isinstance(data, dict):
        raise _bad(path, "its data entry is not a JSON object")
    if entry is not None and not isinstance(entry, dict):
        raise _bad(path, f"its {ENTRY} entry is not a JSON object")
    return data, entry


def read_env_spec(path: str | Path) -> dict[str, Any] | None:
    """The env spec saved in a checkpoint (``None`` if it has none); reads JSON only."""
    _data, entry = read_entries(path)
    spec = None if entry is None else entry.get("env_spec")
    return spec if isinstance(spec, dict) else None


def _space_from_json(value: Any, depth: int = 0) -> Any:
    from gymnasium import spaces

    if not isinstance(value, dict) or depth > 8:
        raise ValueError("a space is not a JSON object")
    kind = value.get("type")
    if kind == "Box":
        dtype = np.dtype(_one_of(value.get("dtype"), ("float32", "float64", "int8", "int16",
                                                       "int32", "int64", "uint8", "bool")))
        shape = tuple(_ints(value.get("shape")))
        low = np.asarray(value.get("low"), dtype=dtype)
        high = np.asarray(value.get("high"), dtype=dtype)
        if low.shape != shape or high.shape != shape:
            raise ValueError("a Box's low or high has not its shape")
        return spaces.Box(low=low, high=high, shape=shape, dtype=dtype)
    if kind == "Discrete":
        n, start = _ints([value.get("n"), value.get("start", 0)])
        return spaces.Discrete(n, start=start)
    if kind == "MultiBinary":
        return spaces.MultiBinary(value.get("n"))
    if kind == "MultiDiscrete":
        dtype = _one_of(value.get("dtype", "int64"), ("int32", "int64"))
        return spaces.MultiDiscrete(_ints(value.get("nvec")), dtype=dtype)
    if kind == "Dict":
        inner = value.get("spaces")
        if not isinstance(inner, dict):
            raise ValueError("a Dict space has no spaces")
        return spaces.Dict({str(k): _space_from_json(v, depth + 1) for k, v in inner.items()})
    raise ValueError(f"unknown space type {str(kind)[:40]!r}")


def _one_of(value: Any, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise ValueError(f"{str(value)[:40]!r} is not one of {', '.join(allowed)}")
    return value


def _ints(values: Any) -> list[int]:
    if not isinstance(values, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise ValueError("expected a list of integers")
    return values


def _kwargs_from_json(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError("policy_kwargs is not a JSON object")
    classes = _kwarg_classes()
    out = {}
    for key, item in value.items():
        if isinstance(item, dict) and ":class:" in item:
            name = item[":class:"]
            if name not in classes:
                raise ValueError(f"policy_kwargs[{key!r}] names the class {str(name)[:80]!r}, "
                                 "which is not allowed")
            out[key] = classes[name]
        else:
            out[key] = item
    return out


def _buffer_from_json(value: Any, maxlen: Any) -> deque | None:
    if value is None:
        return None
    if not isinstance(value, list) or not isinstance(maxlen, int):
        raise ValueError("an episode buffer is not a list")
    return deque(value, maxlen=maxlen)


def custom_objects(data: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    """What replaces every pickled entry of ``data``, rebuilt from :data:`ENTRY`.

    Raises:
        ValueError: ``entry`` is malformed, names a class not allowed, or a pickled entry of
            ``data`` has no replacement.
    """
    if entry.get("format") != FORMAT:
        raise ValueError(f"{ENTRY} has format {str(entry.get('format'))[:20]!r}, not {FORMAT}")
    classes = _policy_classes()
    name = entry.get("policy_class")
    if name not in classes:
        raise ValueError(f"the policy class {str(name)[:80]!r} is not one the package allows "
                         f"({', '.join(sorted(classes))})")
    window = data.get("_stats_window_size", 100)
    objects = {
        "policy_class": classes[name],
        "observation_space": _space_from_json(entry.get("observation_space")),
        "action_space": _space_from_json(entry.get("action_space")),
        "policy_kwargs": _kwargs_from_json(entry.get("policy_kwargs", {})),
        "lr_schedule": None,  # rebuilt from learning_rate by _setup_model
        "rollout_buffer_class": None,  # MaskablePPO picks its own by the space
        "_last_obs": None,  # training resets the envs first (force_reset)
        "_last_episode_starts": None,
        "_last_original_obs": None,
        "ep_info_buffer": _buffer_from_json(entry.get("ep_info_buffer"), window),
        "ep_success_buffer": _buffer_from_json(entry.get("ep_success_buffer"), window),
    }
    for key in ("clip_range", "clip_range_vf"):
        value = entry.get(key)
        if value is not None and not isinstance(value, (int, float)):
            raise ValueError(f"{key} is not a number")
        objects[key] = value
    if objects["clip_range"] is None:
        raise ValueError("clip_range is missing")
    pickled = [key for key, value in data.items()
               if isinstance(value, dict) and ":serialized:" in value and key not in objects]
    if pickled:
        raise ValueError(f"data entries {', '.join(k[:40] for k in pickled[:5])} are pickled "
                         "and the package cannot rebuild them")
    return objects


def load_model(path: str | Path, env: Any = None, device: str = "cpu",
               trust_checkpoint: bool = False, **kwargs: Any) -> Any:
    """A ``MaskablePPO`` model from ``path``, unpickling nothing unless ``trust_checkpoint``
    (see the module docstring); ``env`` and ``kwargs`` as ``MaskablePPO.load`` takes them.

    Raises:
        UntrustedCheckpointError: Loading it would need unpickling (and it is not trusted).
        CheckpointError: Missing, not a zip, malformed, or its weights do not fit.
    """
    from sb3_contrib import MaskablePPO

    path = Path(path)
    data, entry = read_entries(path)
    if trust_checkpoint:
        objects = None
    else:
        bad = [k for k in data if k in FORBIDDEN_KEYS or not str(k).isidentifier()
               or str(k).startswith("__")]
        if bad:
            raise _bad(path, f"its data names {', '.join(str(k)[:40] for k in bad[:5])}, "
                             "which no saved model has")
        if entry is None:
            raise _untrusted(path, f"it has no {ENTRY} (saved by SB3 itself or an older "
                                   "primeval), so its pickled entries would have to be "
                                   "unpickled")
        try:
            objects = custom_objects(data, entry)
        except (ValueError, TypeError) as exc:
            raise _untrusted(path, str(exc)) from None
    try:
        return MaskablePPO.load(path, env=env, device=device, custom_objects=objects, **kwargs)
    except Exception as exc:  # noqa: BLE001  (zip, torch and SB3 errors alike)
        raise _bad(path, f"{type(exc).__name__}: {exc}") from None


# -- the env of a set of agents ----------------------------------------------------------------


def agent_env_spec(spec: str) -> dict[str, Any] | None:
    """The env spec an agent spec's checkpoint carries: ``ppo:PATH`` (its ``primeval.json``),
    ``net:PATH`` and ``mcts:...,net=PATH`` (the network's JSON, or a PPO zip's), or
    ``rllib:PATH`` (the checkpoint folder's ``primeval.json``, which ``primeval train
    --backend rllib`` writes beside RLlib's files); ``None`` for any other agent or
    a checkpoint that does not say. Reads JSON only; a missing or broken file says nothing
    here (loading the agent names the problem)."""
    try:
        if spec.startswith("ppo:"):
            return read_env_spec(spec[4:])
        if spec.startswith("net:"):
            return _network_env_spec(spec[4:])
        if spec.startswith("mcts:"):
            # the net= value alone (parse_mcts_spec checks the rest when the agent is made;
            # importing it here would close an import cycle through the network module)
            nets = [part[4:] for part in spec[5:].split(",") if part.startswith("net=")]
            if len(nets) != 1 or not nets[0]:
                return None
            net = nets[0]
            return read_env_spec(net) if str(net).endswith(".zip") else _network_env_spec(net)
        if spec.startswith("rllib:"):
            folder = Path(spec[6:])
            for candidate in (folder / ENTRY, folder / "checkpoint" / ENTRY):
                if candidate.is_file() and candidate.stat().st_size <= MAX_JSON_BYTES:
                    found = json.loads(candidate.read_text(encoding="utf-8")).get("env_spec")
                    return found if isinstance(found, dict) else None
    except (CheckpointError, OSError, ValueError, RecursionError, AttributeError):
        return None
    return None


def _network_env_spec(path: str | Path) -> dict[str, Any] | None:
    """The env spec in a policy-value network's JSON (``net:PATH``, ``mcts:net=PATH``; the
    folder holding ``network.json`` too); reads that JSON only, never the weights."""
    path = Path(path)
    if path.is_dir():
        path = path / "network.json"
    if not path.is_file() or path.stat().st_size > MAX_JSON_BYTES:
        return None
    found = json.loads(path.read_text(encoding="utf-8")).get("env_spec")
    return found if isinstance(found, dict) else None


def checked_env_options(options: Any, source: str) -> dict[str, Any]:
    """A checkpoint's saved env options, checked as data: a mapping of names that names no
    data file (a file from others never chooses what the package opens, SECURITY.md).

    Raises:
        CheckpointError: Not a mapping of names, or an option naming a file (``*_file``).
    """
    if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
        raise CheckpointError(f"{source}: its env spec's env options are not a mapping of "
                              "names")
    named = sorted(k for k in options if k.endswith("_file"))
    if named:
        raise CheckpointError(
            f"{source}: its env spec names data file(s) {named}; a checkpoint cannot "
            "choose files to open: build the env with your own files instead (Python: "
            "tournament(..., map_file=PATH))")
    return options


def infer_env(agent_specs: list[str], game: str | None, players: int | None,
              default_game: str) -> tuple[dict[str, Any], str | None]:
    """The env a set of agents plays: ``game`` and ``players`` when given, else what their
    checkpoints' env specs say (:func:`agent_env_spec`), else ``default_game`` (and its
    default player count); with a note saying when the game was assumed.

    Returns:
        ``({"game", "players", "encoder", "env"}, note)``: ``players`` is ``None`` when
        neither given nor inferred; ``encoder`` and ``env`` are those of the checkpoints
        (``None`` when none says), ``note`` is ``None`` unless the game was assumed.

    Raises:
        CheckpointError: A checkpoint was trained on another game, player count or env
            options than the one given or than another checkpoint (both named). The
            encoder is the first checkpoint's; one of another encoder plays by encoding
            the states itself.
    """
    from primeval.envs.games import get_game

    found = [(spec, s) for spec in agent_specs if (s := agent_env_spec(spec)) is not None]
    wanted: dict[str, Any] = {}
    if game is not None:
        wanted["game"] = get_game(game).name
    if players is not None:
        wanted["players"] = players
    for key in ("game", "players", "encoder", "env"):
        for spec, saved in found:
            if key not in saved:
                continue
            if key == "encoder":  # a checkpoint of another encoder encodes states itself
                wanted.setdefault(key, saved[key])  # (PolicyAgent.check_env_spec)
                continue
            if key in wanted and saved[key] != wanted[key]:
                source = next((s for s, v in found if v.get(key) == wanted[key]), None)
                given = f"{source}'s" if source else "the given"
                raise CheckpointError(f"{spec} was trained on {key} {saved[key]!r}, but "
                                      f"{given} {key} is {wanted[key]!r}")
            wanted.setdefault(key, saved[key])
    if "game" in wanted:
        version = int(get_game(wanted["game"]).version)
        for spec, saved in found:
            if saved.get("game") == wanted["game"] and saved.get("version", version) != version:
                raise CheckpointError(f"{spec} was trained on version {saved['version']!r} of "
                                      f"{wanted['game']}, this is version {version}")
    options = wanted.get("env")
    if options is not None:
        source = next(spec for spec, saved in found if saved.get("env") == options)
        checked_env_options(options, source)
    note = None
    if "game" not in wanted:
        wanted["game"] = get_game(default_game).name
        note = (f"game {wanted['game']} assumed (no --game given and no agent's checkpoint "
                "names its game)")
    wanted.setdefault("players", None)
    wanted.setdefault("encoder", None)
    wanted.setdefault("env", None)
    return wanted, note
