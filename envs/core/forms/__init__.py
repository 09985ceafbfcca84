"""The integration forms: PettingZoo wrappers over the AEC core, one per file as PettingZoo's
``utils/wrappers/`` are, composed by the env keywords (see :func:`with_forms`).

- :class:`BoxObservationWrapper` (``observation_form="box"``): the encoder's array as the
  observation, the mask in the infos.
- :class:`ActionMaskInInfoWrapper` (``mask_in_info=True``): the mask in the infos too.
- :class:`NumericInfosWrapper` (``info_form="ids"``): the phase and decision infos as ids.
- :class:`PrivateStateWrapper` (``state_private=True``): the global state with every seat's
  private pieces.

Without a form, an env is its core (:class:`~primeval.envs.core.aec.TurnBasedAECEnv`): the
``{"observation", "action_mask"}`` dict, the names in the infos, the public state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pettingzoo import AECEnv

from primeval.envs.core.forms.base import FormWrapper
from primeval.envs.core.forms.box_observation import BoxObservationWrapper
from primeval.envs.core.forms.mask_in_info import ActionMaskInInfoWrapper
from primeval.envs.core.forms.numeric_infos import NumericInfosWrapper, info_names_table
from primeval.envs.core.forms.private_state import PrivateStateWrapper

__all__ = [
    "INFO_FORMS",
    "OBSERVATION_FORMS",
    "ActionMaskInInfoWrapper",
    "BoxObservationWrapper",
    "FormWrapper",
    "NumericInfosWrapper",
    "PrivateStateWrapper",
    "check_forms",
    "forms_doc",
    "info_names_table",
    "with_forms",
]

#: ``observation_form`` values: PettingZoo's ``{"observation", "action_mask"}`` dict, or the
#: encoder's array alone (the mask then in ``infos[agent]["action_mask"]``).
OBSERVATION_FORMS: tuple[str, ...] = ("dict", "box")
#: ``info_form`` values: ``infos[agent]["phase"]`` and ``["decision"]`` as names, or as ids.
INFO_FORMS: tuple[str, ...] = ("names", "ids")


def check_forms(
    observation_form: str = "dict", mask_in_info: bool | None = None, info_form: str = "names"
) -> None:
    """Refuses unknown forms, naming the keyword.

    Raises:
        ValueError: An unknown observation or info form, a ``mask_in_info`` that is not
            True, False or None, or ``"box"`` with ``mask_in_info=False`` (the mask would be
            nowhere).
    """
    if observation_form not in OBSERVATION_FORMS:
        raise ValueError(
            f"unknown observation_form {observation_form!r}; allowed: "
            f"{', '.join(map(repr, OBSERVATION_FORMS))}"
        )
    if info_form not in INFO_FORMS:
        raise ValueError(
            f"unknown info_form {info_form!r}; allowed: {', '.join(map(repr, INFO_FORMS))}"
        )
    if mask_in_info not in (None, True, False):
        raise ValueError(f"mask_in_info must be True, False or None, got {mask_in_info!r}")
    if observation_form == "box" and mask_in_info is False:
        raise ValueError(
            'observation_form="box" keeps the action mask only in the infos; '
            "mask_in_info=False would leave it nowhere"
        )


def with_forms(
    env: AECEnv,
    *,
    observation_form: str = "dict",
    mask_in_info: bool | None = None,
    info_form: str = "names",
    private_state: Callable[[], Any] | None = None,
) -> AECEnv:
    """``env`` in the forms asked for: itself when every form is the core's own, else wrapped.

    Args:
        env: The AEC core.
        observation_form: ``"dict"`` (the core's) or ``"box"`` (:class:`BoxObservationWrapper`).
        mask_in_info: Put the mask in the infos too (:class:`ActionMaskInInfoWrapper`);
            ``None``: only with ``"box"``, which needs it.
        info_form: ``"names"`` (the core's) or ``"ids"`` (:class:`NumericInfosWrapper`).
        private_state: A zero-argument callable building the private state encoder
            (:class:`PrivateStateWrapper`); ``None``: the core's public state.

    Raises:
        ValueError: See :func:`check_forms`; ``"ids"`` without the core's name tables.
    """
    check_forms(observation_form, mask_in_info, info_form)
    box = observation_form == "box"
    if info_form == "ids":
        env = NumericInfosWrapper(env)
    if box if mask_in_info is None else mask_in_info:
        env = ActionMaskInInfoWrapper(env)
    if box:
        env = BoxObservationWrapper(env)
    if private_state is not None:
        env = PrivateStateWrapper(env, private_state)
    return env


def forms_doc(info_names: dict[str, tuple[str, ...]]) -> str:
    """The *Observation forms and infos* section of a game's env docstring: what every game's
    forms give, and the table of its info ids (:func:`info_names_table`)."""
    return _FORMS_DOC + info_names_table(info_names)


_FORMS_DOC = """\
``observation_form="dict"`` (default) gives PettingZoo's ``{"observation", "action_mask"}``;
``"box"`` gives the encoder's array alone (``observation_space`` is the encoder's Box), with
the mask in ``infos[agent]["action_mask"]``, PettingZoo's other place for it, for wrappers that
take only Box observations (SuperSuit's; see ``docs/integrations.md``).
``mask_in_info=True`` puts it in the infos beside the dict too.

``infos[agent]`` holds ``"phase"`` and ``"decision"`` (the pending decision kind, none once
the game is over) as names, or with ``info_form="ids"`` as ints (for libraries that make
every info a tensor, such as TorchRL): their indices in these tables
(``env.unwrapped.info_names``), which are the observation's ``phase`` and ``decision``
one-hot orders:

"""
