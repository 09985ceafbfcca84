"""The skeleton shared by the rule-based agents.

:class:`RuleBasedAgent` reads the rules state (``env.unwrapped.game_state``) and answers the
pending decision, the top frame of ``state.stack``, by calling the subclass's
``_decide_<kind>(rules, state, frame, player, mask)`` method for the frame's kind. The method
returns an action id, or ``None`` when its rules of thumb find nothing to do. Every answer is
checked against the action mask; a missing method, ``None`` or an illegal answer falls back
to a uniformly random legal action from the agent's own seeded generator, counted in
``fallbacks``. A decision with a single legal action is answered without asking anybody.

A subclass names its game's rules and config classes::

    class MyHeuristic(RuleBasedAgent):
        game = "my_game"
        rules_class = MyRules
        config_class = MyConfig

        def _decide_move(self, rules, state, frame, player, mask): ...
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

__all__ = ["RuleBasedAgent"]


class RuleBasedAgent:
    """A rule-based player of one game (see the module docstring).

    Args:
        rules: The game's rules object (best: ``env.unwrapped.rules``) or its config; ``None``
            builds the default rules for the state's player count on first use.
        seed: Seed of the generator used for fallbacks (a uniformly random legal action).

    Attributes:
        name: ``"heuristic"``.
        rng: The fallback generator.
        fallbacks: How many decisions were answered by the random fallback.

    Raises:
        TypeError: ``rules`` is neither the game's rules, its config nor ``None``.
    """

    name = "heuristic"
    uses_observation = False  # reads the rules state instead
    #: The name of the game it plays, as in ``primeval.envs.games.GAMES``.
    game: ClassVar[str]
    #: The game's rules class (built from a config, or per player count when none is given).
    rules_class: ClassVar[type]
    #: The game's frozen config class.
    config_class: ClassVar[type]

    def __init__(self, rules: Any = None, seed: int | None = None) -> None:
        if rules is None or isinstance(rules, self.rules_class):
            self._rules = rules
        elif isinstance(rules, self.config_class):
            self._rules = self.rules_class(rules)
        else:
            config = self.config_class.__name__
            article = "an" if config[0] in "AEIOU" else "a"
            raise TypeError(
                f"{type(self).__name__} takes {self.rules_class.__name__}, {article} {config} "
                f"or None, got {type(rules).__name__}"
            )
        self._default_rules: dict[int, Any] = {}
        self.rng = np.random.default_rng(seed)
        #: Decisions the rules of thumb did not cover (answered by a random legal action).
        self.fallbacks = 0

    def seed(self, seed: int | None) -> None:
        """Reseed the fallback generator."""
        self.rng = np.random.default_rng(seed)

    def act(self, observation: Any, action_mask: np.ndarray, *, state: Any = None,
            seat: int | None = None) -> int:
        """A legal action id for the pending decision of ``state``.

        Args:
            observation: Ignored (the agent reads ``state``).
            action_mask: The acting seat's mask (int8 or bool).
            state: The rules state, ``env.unwrapped.game_state``.
            seat: The acting seat; only used when the pending frame names no player.

        Raises:
            ValueError: ``state`` is None (this agent needs the rules state), the mask has no
                legal action, or the agent's rules are for another player count.
        """
        name = type(self).__name__
        if state is None:
            raise ValueError(
                f"{name}.act needs the rules state: pass "
                "state=env.unwrapped.game_state (and seat=the acting seat)"
            )
        mask = np.asarray(action_mask)
        if mask.dtype != bool:
            mask = mask.astype(bool)
        legal = mask.ravel().nonzero()[0]  # np.flatnonzero, without its Python wrapper
        if legal.size == 0:
            raise ValueError(f"{name}.act: the action mask has no legal action")
        if legal.size == 1:
            return int(legal[0])
        if not state.stack:
            self.fallbacks += 1
            return int(self.rng.choice(legal))
        frame = state.stack[-1]
        rules = self._rules_for(state)
        handler = getattr(self, "_decide_" + frame["kind"], None)
        action = None
        if handler is not None:
            action = handler(rules, state, frame, frame.get("player", seat), mask)
        if action is None or not (0 <= action < mask.size) or not mask[action]:
            self.fallbacks += 1
            action = int(self.rng.choice(legal))
        return int(action)

    def _rules_for(self, state: Any) -> Any:
        """The rules given at construction (checked against the state's player count), or
        the default rules for that player count, built once."""
        if self._rules is not None:
            if self._rules.num_players != state.num_players:
                raise ValueError(
                    f"{type(self).__name__} was given rules for {self._rules.num_players} "
                    f"players but the state has {state.num_players}"
                )
            return self._rules
        n = state.num_players
        rules = self._default_rules.get(n)
        if rules is None:
            from primeval.envs.games import get_game

            rules = get_game(self.game).default_rules(n)  # shared with other agents
            if type(rules) is not self.rules_class:  # a heuristic for other rules
                rules = self.rules_class(num_players=n)
            self._default_rules[n] = rules
        return rules
