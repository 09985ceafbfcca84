"""A policy-value network for search and expert iteration, saved as data.

:class:`PolicyValueNet` reads the encoder's observation of the seat to move and gives

* **policy logits** over the game's flat action space (masked by the legal actions before
  the softmax), and
* a **value vector**, one entry per seat, each in [-1, 1]: the network's prediction of every
  seat's final rank reward (first +1, last -1, linear between, ties share, as the env pays
  it). The head is *ego-centric*, like the observation: entry ``k`` is the seat ``(me + k) %
  n``; :meth:`PolicyValueNetwork.evaluate_states` rotates it back to absolute seats.

A saved network is two files side by side: ``NAME.json`` (the format, the architecture and
the env spec: game, version, players, encoder, env options) and ``NAME.pt`` (the weights,
``torch.save(state_dict)``). Loading reads the JSON as JSON, checks every field, builds the
module from it, and reads the weights with ``torch.load(weights_only=True)``, which rebuilds
tensors only and never runs code from the file; a weights file that does not fit the
architecture exactly is refused by name. The weights are always the JSON's stem plus
``.pt`` in the same folder: the file names no path.

The network in play (a PPO checkpoint standing in for it in the search, the network as an
agent) is in :mod:`primeval.training.expert.play`.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from primeval.envs.core.descriptor import resolve
from primeval.envs.core.encoders import make_encoder
from primeval.envs.games import get_game
from primeval.training.files import atomic_json, write_atomically

__all__ = [
    "FORMAT",
    "KIND",
    "NetworkError",
    "PolicyValueNetwork",
    "STRUCTURED_KIND",
    "load_network",
    "rotate_to_absolute",
    "weights_path",
]

#: Version of the JSON layout.
FORMAT = 1
#: The ``kind`` of the JSON for the MLP network.
KIND = "primeval.policy_value_mlp"
#: The ``kind`` of the JSON for the structured network (its ``arch`` has ``structured``).
STRUCTURED_KIND = "primeval.policy_value_structured"
#: Largest network JSON read (bytes).
MAX_JSON_BYTES = 2**20
#: Largest weights file read (bytes).
MAX_WEIGHTS_BYTES = 512 * 2**20
#: Bounds on the architecture a file may ask for.
MAX_LAYERS, MAX_WIDTH, MAX_INPUT, MAX_ACTIONS = 8, 8192, 2**20, 2**20


class NetworkError(ValueError):
    """A network file is missing, malformed, hostile, or for another env (the message names
    what is wrong)."""


def weights_path(path: str | Path) -> Path:
    """The weights file beside a network JSON: the same stem, ``.pt``."""
    path = Path(path)
    return path.with_suffix(".pt")


def rotate_to_absolute(values: np.ndarray, seats: np.ndarray | list[int]) -> np.ndarray:
    """Ego-centric value rows (``B x n``; entry ``k`` is seat ``(seat + k) % n``) as absolute
    seats' values."""
    values = np.asarray(values)
    n = values.shape[1]
    out = np.empty_like(values)
    for row, seat in enumerate(seats):
        out[row, (int(seat) + np.arange(n)) % n] = values[row]
    return out


def _torch_module(obs_size: int, num_actions: int, num_players: int, hidden: list[int],
                  structured: dict[str, int] | None = None,
                  structure: dict[str, Any] | None = None):
    import torch
    from torch import nn

    if structured is not None:
        from primeval.training.ppo.structured import StructuredNetwork

        class StructuredPolicyValueNet(nn.Module):
            """The structured policy's body (:class:`~primeval.training.ppo.structured.
            StructuredNetwork`: globals' MLP ``hidden``, message passing over the entities,
            one logit per entity action from that entity's embedding) with a value head of
            one tanh entry per seat (ego-centric) over its value context."""

            def __init__(self) -> None:
                super().__init__()
                self.body = StructuredNetwork(
                    structure, obs_size, num_actions, list(hidden),
                    structured["entity_hidden"], structured["rounds"],
                    structured["head_hidden"], nn.ReLU,
                )
                self.body.init_heads()
                self.value = nn.Linear(self.body.latent_dim_vf, num_players)
                self.register_buffer("obs_scale", torch.ones(obs_size))

            def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
                logits, latent = self.body(obs.reshape(obs.shape[0], -1) * self.obs_scale)
                return logits, torch.tanh(self.value(latent))

        return StructuredPolicyValueNet()

    class PolicyValueNet(nn.Module):
        """An MLP trunk over the (scaled, flattened) observation, a policy head (logits over
        the flat actions) and a value head (one tanh entry per seat, ego-centric)."""

        def __init__(self) -> None:
            super().__init__()
            layers: list[nn.Module] = []
            width = obs_size
            for h in hidden:
                layers += [nn.Linear(width, h), nn.ReLU()]
                width = h
            self.trunk = nn.Sequential(*layers)
            self.policy = nn.Linear(width, num_actions)
            self.value = nn.Linear(width, num_players)
            self.register_buffer("obs_scale", torch.ones(obs_size))

        def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            x = self.trunk(obs.reshape(obs.shape[0], -1) * self.obs_scale)
            return self.policy(x), torch.tanh(self.value(x))

    return PolicyValueNet()


def masked_logits(logits: Any, masks: Any) -> Any:
    """``logits`` with illegal actions at -inf (torch tensors; ``masks`` bool)."""
    import torch

    return torch.where(masks, logits, torch.tensor(-math.inf, dtype=logits.dtype))


class PolicyValueNetwork:
    """A :class:`PolicyValueNet` with the env it plays (see the module docstring).

    Args:
        spec: The env spec (:func:`~primeval.training.agents.checkpoint.env_spec`): game,
            version, players, encoder, env.
        hidden: Widths of the trunk's layers (with ``structured``: of the globals' MLP).
        seed: Seed of the weights' initialisation (a generator of its own; torch's global
            one is untouched).
        structured: ``None`` for the MLP; for the structured network (the PPO structured
            policy's body, :mod:`~primeval.training.ppo.structured`, with a value vector)
            ``{"entity_hidden": E, "rounds": R, "head_hidden": H}``. It reads an encoder
            that describes its observation (``encoder.structure()``, Origin's ``graph``),
            which the network takes from its env spec: the file holds no structure.

    Attributes:
        module: The torch module.
        obs_shape, num_actions, num_players: What it reads and gives.
    """

    def __init__(
        self,
        spec: dict[str, Any],
        hidden: tuple[int, ...] | list[int] = (256, 256),
        seed: int | None = 0,
        _init: bool = True,
        structured: dict[str, int] | None = None,
    ) -> None:
        import torch

        self.spec = _check_spec(dict(spec), "network")
        self.hidden = [int(h) for h in hidden]
        self.structured = None if structured is None else dict(structured)
        env = get_game(self.spec["game"]).raw_env(
            self.spec["players"], obs_encoder=self.spec["encoder"], **self.spec["env"]
        )
        space = env.obs_encoder.space()
        self.obs_shape = tuple(int(d) for d in space.shape)
        self.num_actions = int(env.rules.layout.n)
        self.num_players = int(self.spec["players"])
        self.structure = None
        if self.structured is not None:
            describe = getattr(env.obs_encoder, "structure", None)
            if describe is None:
                raise NetworkError(
                    f"the structured network reads an encoder that describes its "
                    f"observation (encoder.structure()); {self.spec['game']}'s "
                    f"{self.spec['encoder']!r} does not"
                )
            self.structure = describe()
        _check_arch(self.arch(), "network")
        if _init:
            with torch.random.fork_rng(devices=[]):
                torch.manual_seed(0 if seed is None else int(seed))
                self.module = self._new_module()
            high = np.asarray(space.high, dtype=np.float64).reshape(-1)
            scale = np.where(np.isfinite(high) & (high > 0), 1.0 / np.maximum(high, 1e-12), 1.0)
            self.module.obs_scale.copy_(torch.as_tensor(scale, dtype=torch.float32))
        self.module_eval = True
        self._encoders: dict[int, Any] = {}

    @property
    def obs_size(self) -> int:
        return int(np.prod(self.obs_shape))

    def _new_module(self) -> Any:
        return _torch_module(self.obs_size, self.num_actions, self.num_players, self.hidden,
                             self.structured, self.structure)

    def arch(self) -> dict[str, Any]:
        """The architecture as the JSON holds it."""
        arch: dict[str, Any] = {
            "hidden": list(self.hidden),
            "obs_shape": list(self.obs_shape),
            "num_actions": self.num_actions,
            "num_players": self.num_players,
        }
        if self.structured is not None:
            arch["structured"] = dict(self.structured)
        return arch

    # -- evaluating ------------------------------------------------------------------------

    def forward(self, observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Policy probabilities over the legal actions and ego-centric values, per row."""
        import torch

        with torch.inference_mode():
            obs = torch.as_tensor(np.asarray(observations, dtype=np.float32))
            mask = torch.as_tensor(np.asarray(masks, dtype=bool))
            logits, values = self.module(obs)
            probs = torch.softmax(masked_logits(logits, mask), dim=-1)
        return probs.numpy(), values.numpy()

    def encoder_for(self, rules: Any) -> Any:
        """The network's encoder over ``rules`` (built once per rules object)."""
        entry = self._encoders.get(id(rules))
        if entry is None or entry[1] is not rules:
            registry = resolve(get_game(self.spec["game"]).encoders_module).ENCODERS
            encoder = make_encoder(registry, self.spec["encoder"], rules)
            if tuple(encoder.space().shape) != tuple(self.obs_shape):
                raise NetworkError(
                    f"the network reads observations of shape {self.obs_shape}, "
                    f"its encoder gives {tuple(encoder.space().shape)} for "
                    "these rules"
                )
            entry = self._encoders[id(rules)] = (encoder, rules)
        return entry[0]

    def evaluate_states(
        self, rules: Any, states: list[Any], seats: list[int]
    ) -> tuple[np.ndarray, np.ndarray]:
        """Priors (``B x actions``) and absolute per-seat values (``B x n``) of rules states,
        each read as the observation of its seat (the seat to move), in one forward pass."""
        encoder = self.encoder_for(rules)
        obs = np.stack([encoder.encode(s, seat) for s, seat in zip(states, seats, strict=True)])
        masks = np.stack([rules.legal_mask(s) for s in states]).astype(bool)
        probs, values = self.forward(obs, masks)
        return probs, rotate_to_absolute(values, seats)

    def check_env(self, game: str, players: int) -> None:
        """Refuse use in another game or player count, naming the mismatch."""
        if get_game(game).name != self.spec["game"]:
            raise NetworkError(f"the network plays {self.spec['game']}, not {game}")
        if int(players) != self.spec["players"]:
            raise NetworkError(
                f"the network plays {self.spec['players']} players, this game has {players}"
            )

    # -- saving ----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        kind = KIND if self.structured is None else STRUCTURED_KIND
        return {"format": FORMAT, "kind": kind, "env_spec": self.spec, "arch": self.arch()}

    def save(self, path: str | Path) -> Path:
        """Write ``path`` (JSON) and its weights beside it (``.pt``), each atomically."""

        import torch

        path = Path(path)
        if path.suffix != ".json":
            raise NetworkError(f"a network file ends in .json, got {path}")
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(weights_path(path), lambda tmp: torch.save(self.module.state_dict(), tmp))
        atomic_json(self.to_json(), path)
        return path

    @classmethod
    def load(cls, path: str | Path, expect: dict[str, Any] | None = None) -> PolicyValueNetwork:
        """A saved network (see the module docstring); ``expect``: env spec keys it must have
        (``{"game": "origin", "players": 3}``), refused by name if they differ.

        Raises:
            NetworkError: Missing, malformed or hostile files, weights that do not fit, or
                another env than ``expect``.
        """
        import torch

        path = Path(path)
        if path.is_dir():
            path = path / "network.json"
        where = f"network {path}"
        if not path.is_file():
            raise NetworkError(f"{where} does not exist")
        if path.stat().st_size > MAX_JSON_BYTES:
            raise NetworkError(f"{where} is larger than {MAX_JSON_BYTES} bytes")
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, RecursionError, UnicodeDecodeError) as exc:
            raise NetworkError(f"{where} is not JSON: {type(exc).__name__}") from None
        if not isinstance(data, dict):
            raise NetworkError(f"{where} is not a JSON object")
        if data.get("format") != FORMAT:
            raise NetworkError(f"{where}: format {str(data.get('format'))[:20]!r}, not {FORMAT}")
        kind = data.get("kind")
        if kind not in (KIND, STRUCTURED_KIND):
            raise NetworkError(
                f"{where}: kind {str(kind)[:60]!r}, not {KIND!r} or {STRUCTURED_KIND!r}"
            )
        spec = _check_spec(data.get("env_spec"), where)
        arch = _check_arch(data.get("arch"), where)
        if ("structured" in arch) != (kind == STRUCTURED_KIND):
            raise NetworkError(
                f"{where}: a {kind!r} network's arch "
                + ("needs" if kind == STRUCTURED_KIND else "has no")
                + " 'structured' entry"
            )
        if expect:
            from primeval.training.agents.checkpoint import spec_mismatch

            diff = spec_mismatch(spec, expect)
            if diff:
                raise NetworkError(f"{where} was trained on another env: {diff}")
        try:
            net = cls(spec, arch["hidden"], _init=False, structured=arch.get("structured"))
        except NetworkError as exc:
            raise NetworkError(f"{where}: {exc}") from None
        except (ValueError, TypeError) as exc:
            raise NetworkError(f"{where}: its env spec does not build an env: {exc}") from None
        for key in ("obs_shape", "num_actions", "num_players"):
            mine = list(net.arch()[key]) if key == "obs_shape" else net.arch()[key]
            if arch[key] != mine:
                raise NetworkError(
                    f"{where}: its {key} is {arch[key]}, the env of its spec gives {mine}"
                )
        net.module = net._new_module()
        weights = weights_path(path)
        if not weights.is_file():
            raise NetworkError(f"{where}: its weights {weights.name} are missing beside it")
        if weights.stat().st_size > MAX_WEIGHTS_BYTES:
            raise NetworkError(f"{where}: its weights are larger than {MAX_WEIGHTS_BYTES} bytes")
        try:
            state = torch.load(weights, map_location="cpu", weights_only=True)
        except Exception as exc:  # noqa: BLE001  (unpickling refused, truncated, not torch)
            raise NetworkError(
                f"{where}: its weights {weights.name} cannot be read as plain "
                f"tensors: {type(exc).__name__}: {str(exc)[:200]}"
            ) from None
        if not isinstance(state, dict) or not all(
            isinstance(k, str) and isinstance(v, torch.Tensor) for k, v in state.items()
        ):
            raise NetworkError(f"{where}: its weights are not a mapping of names to tensors")
        expected = net.module.state_dict()
        if set(state) != set(expected):
            missing = sorted(set(expected) - set(state))
            extra = sorted(set(state) - set(expected))
            raise NetworkError(
                f"{where}: its weights do not fit the architecture (missing "
                f"{missing[:4]}, unexpected {extra[:4]})"
            )
        for key, tensor in state.items():
            if tuple(tensor.shape) != tuple(expected[key].shape):
                raise NetworkError(
                    f"{where}: weight {key} has shape {tuple(tensor.shape)}, the "
                    f"architecture needs {tuple(expected[key].shape)}"
                )
            if not torch.isfinite(tensor).all():
                raise NetworkError(f"{where}: weight {key} is not finite")
        net.module.load_state_dict(state)
        net.module.eval()
        net.path = path
        return net


def _check_spec(spec: Any, where: str) -> dict[str, Any]:
    if not isinstance(spec, dict):
        raise NetworkError(f"{where}: env_spec is not a JSON object")
    game = spec.get("game")
    try:
        entry = get_game(game) if isinstance(game, str) else None
    except (KeyError, ValueError):
        entry = None
    if entry is None:
        raise NetworkError(
            f"{where}: env_spec game {str(game)[:40]!r} is not a game of the catalogue"
        )
    players = spec.get("players")
    if (
        not isinstance(players, int)
        or isinstance(players, bool)
        or players not in entry.player_counts
    ):
        raise NetworkError(
            f"{where}: env_spec players {str(players)[:20]!r} is not one of "
            f"{entry.name}'s {list(entry.player_counts)}"
        )
    if spec.get("version", entry.version) != entry.version:
        raise NetworkError(
            f"{where}: env_spec version {str(spec.get('version'))[:20]!r}, this "
            f"is version {entry.version} of {entry.name}"
        )
    encoder = spec.get("encoder", entry.default_encoder)
    if encoder not in entry.encoders:
        raise NetworkError(
            f"{where}: env_spec encoder {str(encoder)[:40]!r} is not one of {list(entry.encoders)}"
        )
    env = spec.get("env", {})
    if not isinstance(env, dict) or not all(isinstance(k, str) for k in env):
        raise NetworkError(f"{where}: env_spec env is not a mapping of option names")
    files = sorted(k for k in env if k.endswith("_file"))
    if files:  # a file from others never chooses what the package opens (SECURITY.md)
        raise NetworkError(
            f"{where}: env_spec names data file(s) {files}; a network file "
            "cannot choose files to open"
        )
    return {
        "game": entry.name,
        "version": int(entry.version),
        "players": players,
        "encoder": encoder,
        "env": dict(env),
    }


def _check_arch(arch: Any, where: str) -> dict[str, Any]:
    def whole(value: Any, low: int, high: int) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high

    if not isinstance(arch, dict):
        raise NetworkError(f"{where}: arch is not a JSON object")
    hidden = arch.get("hidden")
    if not (
        isinstance(hidden, list)
        and 1 <= len(hidden) <= MAX_LAYERS
        and all(whole(h, 1, MAX_WIDTH) for h in hidden)
    ):
        raise NetworkError(
            f"{where}: arch hidden must be 1 to {MAX_LAYERS} widths of 1 to "
            f"{MAX_WIDTH}, got {str(hidden)[:60]}"
        )
    shape = arch.get("obs_shape")
    if not (
        isinstance(shape, list)
        and 1 <= len(shape) <= 4
        and all(whole(d, 1, MAX_INPUT) for d in shape)
        and math.prod(shape) <= MAX_INPUT
    ):
        raise NetworkError(f"{where}: arch obs_shape {str(shape)[:60]} is not a shape")
    if not whole(arch.get("num_actions"), 1, MAX_ACTIONS):
        raise NetworkError(
            f"{where}: arch num_actions {str(arch.get('num_actions'))[:20]} is "
            "not a whole number of actions"
        )
    if not whole(arch.get("num_players"), 1, 16):
        raise NetworkError(
            f"{where}: arch num_players {str(arch.get('num_players'))[:20]} is not a player count"
        )
    if "structured" in arch:
        structured = arch["structured"]
        bounds = {"entity_hidden": (1, MAX_WIDTH), "rounds": (0, MAX_LAYERS),
                  "head_hidden": (1, MAX_WIDTH)}
        if not (
            isinstance(structured, dict)
            and set(structured) == set(bounds)
            and all(whole(structured[k], *bounds[k]) for k in bounds)
        ):
            raise NetworkError(
                f"{where}: arch structured must be {{entity_hidden: 1..{MAX_WIDTH}, "
                f"rounds: 0..{MAX_LAYERS}, head_hidden: 1..{MAX_WIDTH}}}, got "
                f"{str(structured)[:80]}"
            )
    return arch


def load_network(path: str | Path, expect: dict[str, Any] | None = None) -> PolicyValueNetwork:
    """:meth:`PolicyValueNetwork.load`."""
    return PolicyValueNetwork.load(path, expect)
