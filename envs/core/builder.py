"""``EnvBuilder``: a game's ``raw_env`` and ``env`` from its pieces and the shared keywords.

Every game's env takes the same keywords beside its own rules config; the builder holds what
differs (the core class with its metadata, the config, rules, encoders, view, info tables,
state encoder and default ``max_steps``) and builds the AEC core, its integration forms
(:mod:`primeval.envs.core.forms`) and, for ``env()``, PettingZoo's safety wrappers::

    BUILDER = EnvBuilder(PrimordialSoupEnv, PrimordialSoupConfig.from_overrides,
                         PrimordialSoupRules, ENCODERS, PrimordialSoupView, INFO_NAMES,
                         make_state_encoder)

    def raw_env(num_players=4, obs_encoder="flat", **kwargs):
        return BUILDER.raw_env(num_players, obs_encoder, **kwargs)
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pettingzoo import AECEnv

from primeval.envs.core.aec import TurnBasedAECEnv
from primeval.envs.core.encoders import make_encoder
from primeval.envs.core.forms import with_forms
from primeval.envs.core.state_encoder import check_state_private
from primeval.envs.core.wrappers import with_safety_wrappers

__all__ = ["EnvBuilder"]

#: The keywords every game's env takes beside its rules config's fields.
ENV_KEYWORDS = ("num_players", "obs_encoder", "render_mode", "max_steps", "reward_mode",
                "observation_form", "mask_in_info", "info_form", "state_private")

_GAME_DEFAULT: Any = object()  # max_steps not given: the game's own default


@dataclass(frozen=True)
class EnvBuilder:
    """What a game gives to build its env.

    Attributes:
        core: The game's :class:`TurnBasedAECEnv` subclass (it sets ``metadata``).
        config: Builds the rules config from ``num_players`` and the config overrides,
            refusing unknown fields (the config class's ``from_overrides``).
        rules: Builds the rules from the config.
        encoders: ``{name: encoder class}`` (see ``make_encoder``).
        view: Builds the view from the rules.
        info_names: The names each info can hold (see ``TurnBasedAECEnv``).
        state_encoder: ``state_encoder(rules, private=False)`` builds PettingZoo's state
            encoder (public, or with every seat's private pieces); ``None``: the game has no
            ``state()`` (and ``state_private=True`` is refused).
        max_steps: The game's default ``max_steps`` (``None``: never truncate).
    """

    core: type[TurnBasedAECEnv]
    config: Callable[..., Any]
    rules: Callable[[Any], Any]
    encoders: Mapping[str, type]
    view: Callable[[Any], Any]
    info_names: Mapping[str, Sequence[str]]
    state_encoder: Callable[..., Any] | None = None
    max_steps: int | None = None

    def raw_env(
        self,
        num_players: int,
        obs_encoder: Any = "flat",
        render_mode: str | None = None,
        max_steps: int | None = _GAME_DEFAULT,
        reward_mode: str = "rank",
        observation_form: str = "dict",
        mask_in_info: bool | None = None,
        info_form: str = "names",
        state_private: bool = False,
        **config_overrides: Any,
    ) -> AECEnv:
        """The game's AEC core in the forms asked for, without the safety wrappers.

        Args:
            num_players: Seats (the config checks the count).
            obs_encoder: An encoder name of :attr:`encoders` or a built encoder.
            render_mode, max_steps, reward_mode: See ``TurnBasedAECEnv``; ``max_steps``
                not given is the game's :attr:`max_steps`.
            observation_form, mask_in_info, info_form: See
                :func:`~primeval.envs.core.forms.with_forms`.
            state_private: ``state()`` with every seat's private pieces too.
            **config_overrides: Fields of the game's config.

        Raises:
            ValueError: An unknown config field, encoder, mode or form, or a bad value
                (the message names it).
            TypeError: ``obs_encoder`` is neither a name nor an encoder.
        """
        self._check_keywords(config_overrides)
        config = self.config(num_players=num_players, **config_overrides)
        rules = self.rules(config)
        encoder = make_encoder(self.encoders, obs_encoder, rules)
        view = self.view(rules)
        private = check_state_private(state_private)
        if private and self.state_encoder is None:
            raise ValueError(f"state_private=True: {self.core.metadata.get('name', 'this game')}"
                             " has no state(); allowed: False")
        state_encoder = (None if self.state_encoder is None
                         else functools.partial(self.state_encoder, rules, private=False))
        core = self.core(
            rules,
            encoder,
            view,
            render_mode=render_mode,
            max_steps=self.max_steps if max_steps is _GAME_DEFAULT else max_steps,
            reward_mode=reward_mode,
            info_names=self.info_names,
            state_encoder=state_encoder,
        )
        return with_forms(
            core,
            observation_form=observation_form,
            mask_in_info=mask_in_info,
            info_form=info_form,
            private_state=(
                functools.partial(self.state_encoder, rules, private=True) if private else None
            ),
        )

    def _check_keywords(self, overrides: Mapping[str, Any]) -> None:
        """An unknown keyword: refused naming the config's fields, the env's own keywords and
        the nearest of all (``render=`` -> ``render_mode``)."""
        config_class = getattr(self.config, "__self__", None)
        if not (isinstance(config_class, type) and dataclasses.is_dataclass(config_class)):
            return  # the config callable checks its own fields
        known = sorted(f.name for f in dataclasses.fields(config_class))
        unknown = sorted(set(overrides) - set(known))
        if not unknown:
            return
        every = [*ENV_KEYWORDS, *known]
        hints = []
        for name in unknown:
            close = difflib.get_close_matches(name, every, n=1, cutoff=0.6)
            close = close or [k for k in every if k.startswith(name) or name.startswith(k)][:1]
            if close:
                hints.append(f"{name!r}: did you mean {close[0]!r}?")
        raise ValueError(
            f"unknown {config_class.__name__} field(s) {unknown}"
            + (f" ({'; '.join(hints)})" if hints else "")
            + f"; the env's own keywords: {list(ENV_KEYWORDS)}; known fields: {known}"
        )

    def env(self, num_players: int, obs_encoder: Any = "flat", **kwargs: Any) -> AECEnv:
        """:meth:`raw_env` with PettingZoo's TerminateIllegal, AssertOutOfBounds and
        OrderEnforcing wrappers (the usual way to use it)."""
        return with_safety_wrappers(self.raw_env(num_players, obs_encoder, **kwargs))
