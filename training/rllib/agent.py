"""An agent that plays an RLlib checkpoint's policy: the ``rllib:PATH`` spec of
``primeval evaluate``, ``league`` and ``play``.

``PATH`` is a run folder of ``primeval train --backend rllib`` (its ``checkpoint/``), an
Algorithm checkpoint (``Algorithm.save_to_path``), or one RLModule's folder inside one
(``.../learner_group/learner/rl_module/shared``). Only the module is loaded
(``RLModule.from_checkpoint``): no Ray cluster is started.

RLlib's ``from_checkpoint`` always unpickles the module's ``class_and_ctor_args.pkl`` (with
``ray.cloudpickle``; its state too, unless the checkpoint was saved with
``use_msgpack=True``), and RLlib offers no way to load a module without it. So a crafted
checkpoint runs any code it holds, and :class:`RLlibAgent` refuses every checkpoint unless
it is trusted (``trust_checkpoint=True``, the CLI's ``--trust-checkpoint``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from primeval.training.agents.checkpoint import TRUST_HINT, UntrustedCheckpointError
from primeval.training.agents.policy import CheckpointError
from primeval.training.rllib.config import SHARED_MODULE

#: Where an Algorithm checkpoint keeps its learner's modules.
MODULES_DIR = Path("learner_group", "learner", "rl_module")


def module_path(path: str | Path, module_id: str = SHARED_MODULE) -> Path:
    """The folder of module ``module_id`` in a run folder, an Algorithm checkpoint or the
    module's own folder, absolute (RLlib reads a relative one as a URI and refuses it)."""
    path = Path(path).resolve()
    for candidate in (path / "checkpoint" / MODULES_DIR / module_id,
                      path / MODULES_DIR / module_id, path):
        if (candidate / "class_and_ctor_args.pkl").is_file():
            return candidate
    raise CheckpointError(f"checkpoint {path} holds no RLlib module {module_id!r} (expected a "
                          f"run folder, an Algorithm checkpoint or an RLModule folder)")


class RLlibAgent:
    """Plays a :class:`~primeval.training.rllib.module.MaskedPPOTorchRLModule`: its most
    likely legal action, or a sample from its masked distribution.

    Args:
        path: See :func:`module_path`.
        module_id: The module to play (``shared``, or a snapshot slot ``snapshot_0``...).
        deterministic: Take the most likely action (default) or sample.
        seed: Seed of the sampling when ``deterministic`` is False.
        trust_checkpoint: Load the checkpoint although RLlib unpickles it (it can run any
            code it holds); without it every RLlib checkpoint is refused.
    """

    def __init__(self, path: str | Path, module_id: str = SHARED_MODULE,
                 deterministic: bool = True, seed: int | None = None,
                 trust_checkpoint: bool = False) -> None:
        from ray.rllib.core.rl_module.rl_module import RLModule

        where = module_path(path, module_id)
        if not trust_checkpoint:
            raise UntrustedCheckpointError(
                f"checkpoint {where} cannot be loaded safely: RLlib's "
                "RLModule.from_checkpoint unpickles its class_and_ctor_args.pkl (and its "
                "state unless saved with use_msgpack=True), and RLlib has no loader that "
                f"does not; {TRUST_HINT}")
        try:
            module = RLModule.from_checkpoint(where)
        except Exception as exc:  # noqa: BLE001  (pickle, torch and ray errors alike)
            raise CheckpointError(f"checkpoint {where} cannot be loaded as an RLlib module: "
                                  f"{type(exc).__name__}: {exc}") from None
        self._init(module, f"rllib:{path}", deterministic, seed)
        self.path = Path(path)

    @classmethod
    def from_module(cls, module: Any, name: str = "learner", deterministic: bool = True,
                    seed: int | None = None) -> RLlibAgent:
        """An agent playing ``module`` in memory."""
        agent = cls.__new__(cls)
        agent._init(module, name, deterministic, seed)
        agent.path = None
        return agent

    def _init(self, module: Any, name: str, deterministic: bool, seed: int | None) -> None:
        self.module = module
        self.module.eval()
        self.name = name
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    def check_spaces(self, observation_space, action_space) -> None:
        """Refuse a module trained for another game, player count or encoder."""
        mine = self.module.observation_space
        shape = mine["observation"].shape if hasattr(mine, "spaces") else mine.shape
        if shape != observation_space.shape:
            raise CheckpointError(f"{self.name} expects observations of shape {shape}, this "
                                  f"env gives {observation_space.shape} (another game, player "
                                  "count or encoder?)")
        if self.module.action_space.n != action_space.n:
            raise CheckpointError(f"{self.name} has {self.module.action_space.n} actions, "
                                  f"this env has {action_space.n}")

    def logits(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """The masked logits of a batch (``k x obs``, ``k x actions``)."""
        import torch
        from ray.rllib.core.columns import Columns

        batch = {Columns.OBS: {
            "observation": torch.as_tensor(np.asarray(observations, dtype=np.float32)),
            "action_mask": torch.as_tensor(np.asarray(action_masks, dtype=np.int8))}}
        with torch.no_grad():
            out = self.module.forward_inference(batch)
        return out[Columns.ACTION_DIST_INPUTS].double().numpy()

    def act(self, observation, action_mask, *, state=None, seat=None) -> int:
        mask = np.asarray(action_mask)
        logits = self.logits(np.asarray(observation)[None], mask[None])[0]
        if self.deterministic:
            return int(np.argmax(np.where(mask > 0, logits, -np.inf)))
        probs = np.where(mask > 0, np.exp(logits - logits[mask > 0].max()), 0.0)
        return int(self.rng.choice(len(probs), p=probs / probs.sum()))
