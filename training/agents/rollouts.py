"""Rollout search: the network proposes a few moves, paired rollouts choose among them.

A search for small budgets in noisy games, after Tesauro and Galperin's on-line policy
improvement by Monte Carlo rollouts ("On-line policy improvement using Monte-Carlo search",
NIPS 1996), with the candidates pruned by a policy network and the rollouts compared under
**common random numbers**. One decision of :class:`RolloutSearchAgent`:

1. **Propose.** The network (``net=PATH``: a policy-value network's JSON or a PPO ``.zip``,
   as ``mcts:net=`` takes it) reads the acting seat's observation of a determinized state
   and its ``k`` most likely legal moves are the candidates, the most likely first.
2. **Roll out, paired.** ``n`` times: deal the hidden cards anew
   (``rules.sample_determinization(state, seat, rng)``: what the seat sees, the rest sampled;
   the real state's hidden cards are never read) and draw one seed; from that one deal, each
   candidate is played and then the game's heuristic bot plays every seat for ``depth``
   actions (``depth=end``: to the end), the dice and draws drawn from that one seed and the
   bot's tie-breaks from that draw plus one. A finished game is worth the seat's rank reward, a cut
   one its score margin (the score minus the mean, over the spread, as ``mcts`` judges a cut
   rollout). Every candidate meets the same deals and the same seeds, so the difference of
   two candidates' values in one pair is the difference the move made, not the luck of the
   deal: the variance that decides how many rollouts a comparison needs is that of the
   difference (in Origin about half that of independent rollouts' difference).
3. **Choose.** The network's choice stands unless another candidate's mean paired
   difference over it is above ``z`` standard errors (``z=0``: the best mean wins); then the
   best of those is played.
4. **Look again** (``confirm=N``, off by default). Where step 3 leaves the network's choice,
   a second search of ``N`` paired rollouts per candidate, from deals and seeds of its own
   generator, judges the same candidates by the same rule, and its choice is played: a
   switch is kept only if it stands a second, larger look (with the defaults most switches
   are the luck of 16 pairs: docs/search.md, "Origin: expert iteration").

A decision costs ``k * n`` rollouts (``k=3,n=16``: 48, the "simulations" of this search,
each of ``depth`` actions after the candidate), fewer when fewer moves are legal. The
rollouts play the other seats as the heuristic bot plays, the acting seat's later moves
too: the search improves on the network's choice against the bots as they play (the same opponent model as ``mcts:model=heuristic``),
and its model is wrong against anyone who plays otherwise.

The spec, as ``primeval evaluate`` and ``play`` take it: ``rollouts:net=PATH`` or
``rollouts:net=PATH,KEY=VALUE,...`` with keys ``k`` (candidates, default 3), ``n`` (paired
rollouts per candidate, default 16), ``depth`` (actions after the candidate, or ``end``;
default 80), ``z`` (the switching threshold in standard errors, default 1) and ``confirm``
(pairs of the second look at a switch; default 0, no second look). ``z`` was
chosen on probe games; ``n`` and ``depth`` from how well a cut rollout's margin agrees with
the game's end (``horizon.py``), on no evaluation games. Held out, in Origin with the
residual agent as the network, the defaults win 0.649 of 400 games against two heuristic
bots where the network alone wins 0.501; the first defaults, ``n=32,depth=20``, whose
20-action margin does not tell which move wins, played as the network did (docs/search.md,
"Origin: the rollout search, measured").
With a seed the agent is reproducible: :meth:`seed` seeds two generators, the search's
(``default_rng(seed)``, which draws everything of steps 1-3) and the second look's (a child
of ``SeedSequence(seed)``), so a second look never changes what the first search draws.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, fields, replace
from typing import Any

import numpy as np

from primeval.envs.core.rewards import rank_rewards
from primeval.envs.games import get_game
from primeval.training.agents.mcts import score_margin, static_scores
from primeval.training.agents.specs import number, spec_values, whole

__all__ = ["RolloutSearchAgent", "RolloutSearchConfig", "parse_rollouts_spec"]

#: By how much a mean paired difference must pass its threshold: more than rounding.
_TIE = 1e-9


@dataclass(frozen=True)
class RolloutSearchConfig:
    """The search's settings (the spec's keys; see the module docstring).

    Attributes:
        net: The network proposing the candidates (a network JSON or its folder, or a PPO
            ``.zip``).
        k: Candidates per decision: the network's ``k`` most likely legal moves (>= 2).
        n: Paired rollouts per candidate (>= 2: the switching test needs a spread).
        depth: Actions played after the candidate before the score margin judges the
            position; ``None``: to the end of the game.
        z: Standard errors by which a candidate's mean paired difference over the network's
            choice must exceed zero to be played instead (0: the best mean is played).
        confirm: Paired rollouts per candidate of the second look where the search leaves
            the network's choice (0: no second look; else >= 2).
    """

    net: str = ""
    k: int = 3
    n: int = 16
    depth: int | None = 80
    z: float = 1.0
    confirm: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.net, str) or not self.net:
            raise ValueError("rollouts needs a network: rollouts:net=PATH (a network JSON or "
                             "a PPO .zip)")
        for key, least in (("k", 2), ("n", 2)):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise ValueError(f"rollouts {key} must be a whole number >= {least}, "
                                 f"got {value!r}")
        if self.depth is not None and (isinstance(self.depth, bool)
                                       or not isinstance(self.depth, int) or self.depth < 0):
            raise ValueError(f"rollouts depth must be a whole number >= 0 or 'end', "
                             f"got {self.depth!r}")
        if not (isinstance(self.z, (int, float)) and self.z >= 0 and math.isfinite(self.z)):
            raise ValueError(f"rollouts z must be a finite number >= 0, got {self.z!r}")
        if (isinstance(self.confirm, bool) or not isinstance(self.confirm, int)
                or self.confirm < 0 or self.confirm == 1):
            raise ValueError(f"rollouts confirm must be 0 (no second look) or a whole number "
                             f">= 2, got {self.confirm!r}")

    def spec(self) -> str:
        """The spec that builds this config (``net`` and the keys that differ from the
        defaults)."""
        default = RolloutSearchConfig(net="-")
        parts = [f"net={self.net}"]
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name != "net" and value != getattr(default, f.name):
                parts.append(f"{f.name}={'end' if value is None else value}")
        return "rollouts:" + ",".join(parts)


_PARSERS = {
    "net": lambda key, text: text,
    "k": whole,
    "n": whole,
    "depth": lambda key, text: None if text == "end" else whole(key, text),
    "z": number,
    "confirm": whole,
}


def parse_rollouts_spec(spec: str) -> RolloutSearchConfig:
    """The config of ``rollouts:net=PATH,KEY=VALUE,...`` (strict: every key known and
    once, every value valid, ``net`` given).

    Raises:
        ValueError: Not a rollouts spec, an unknown or repeated key, a bad value or no
            ``net``; the message names it and what is allowed.
    """
    name, sep, rest = spec.partition(":")
    if name != "rollouts":
        raise ValueError(f"not a rollouts spec: {spec!r}")
    values = spec_values("rollouts", spec, rest, _PARSERS)
    try:
        return replace(RolloutSearchConfig(net="-"), **{"net": "", **values})
    except ValueError as exc:
        raise ValueError(f"rollouts spec {spec!r}: {str(exc).removeprefix('rollouts ')}") \
            from None


class RolloutSearchAgent:
    """The rollout search (see the module docstring), for a game with a heuristic bot.

    Args:
        game: A game of the catalogue.
        config: The settings, a :class:`RolloutSearchConfig` or a spec string.
        seed: Seed of the agent's one generator.
        evaluator: The network proposing the moves, instead of loading the config's ``net``
            (anything with ``check_env(game, players)`` and ``evaluate_states(rules, states,
            seats) -> (priors, values)``, as :mod:`primeval.training.expert.network` gives).
        trust_checkpoint: For ``net=`` a PPO zip that needs unpickling (see
            :mod:`~primeval.training.agents.checkpoint`).

    Attributes:
        decisions: Decisions asked with more than one legal action.
        searched: Those with more than one candidate (the others play the network's move).
        switched: Those where a candidate other than the network's choice was played.
        second_looks: Those judged again (``confirm``: the first search left the network's
            choice).
        rollouts, search_seconds: Rollouts played and seconds spent, over the agent's life.
    """

    uses_observation = False  # reads the rules state

    def __init__(self, game: str, config: RolloutSearchConfig | str, seed: int | None = None,
                 evaluator: Any = None, trust_checkpoint: bool = False) -> None:
        self.game = get_game(game).name
        self.config = parse_rollouts_spec(config) if isinstance(config, str) else config
        if get_game(game).heuristic is None:
            raise ValueError(f"rollouts: game {self.game!r} has no heuristic agent to roll "
                             "out with (its descriptor names none)")
        if evaluator is None:
            from primeval.training.expert.play import load_evaluator

            evaluator = load_evaluator(self.config.net, trust_checkpoint=trust_checkpoint)
        if getattr(evaluator, "spec", None) is not None and evaluator.spec["game"] != self.game:
            raise ValueError(f"rollouts net={self.config.net}: the network plays "
                             f"{evaluator.spec['game']}, not {self.game}")
        self.evaluator = evaluator
        self.name = self.config.spec()
        self._bots: dict[int, Any] = {}
        self.decisions = self.searched = self.switched = self.second_looks = self.rollouts = 0
        self.search_seconds = 0.0
        self.seed(seed)

    def seed(self, seed: int | None) -> None:
        """Reseed the search's generator (the rollouts' seeds are drawn from it) and the
        second look's (a child of the same seed, drawing nothing from the first)."""
        self.rng = np.random.default_rng(seed)
        self.second_rng = np.random.default_rng(np.random.SeedSequence(seed).spawn(1)[0])

    def check_env_spec(self, spec: dict[str, Any]) -> None:
        """Refuse a network for another game or player count (tournaments call it)."""
        if hasattr(self.evaluator, "check_env"):
            self.evaluator.check_env(spec["game"], spec["players"])

    def act(self, observation: Any, action_mask: np.ndarray, *, state: Any = None,
            seat: int | None = None) -> int:
        """The chosen legal action (see the module docstring).

        Raises:
            ValueError: ``state`` is None (the search needs the rules state), or the mask
                has no legal action.
        """
        if state is None:
            raise ValueError("RolloutSearchAgent.act needs the rules state: pass "
                             "state=env.unwrapped.game_state (and seat=the acting seat)")
        legal = np.flatnonzero(np.asarray(action_mask))
        if legal.size == 0:
            raise ValueError("RolloutSearchAgent.act: the action mask has no legal action")
        if legal.size == 1:
            return int(legal[0])
        start = time.perf_counter()
        rules = self.rules_for(state)
        me = rules.current_player(state) if seat is None else seat
        self.decisions += 1
        candidates = self.candidates(rules, state, me, legal)
        choice = candidates[0]
        if len(candidates) > 1:
            self.searched += 1
            values = self.paired_values(rules, state, me, candidates)
            choice = candidates[self.choose(values)]
            if self.config.confirm and choice != candidates[0]:
                self.second_looks += 1
                values = self.paired_values(rules, state, me, candidates,
                                            n=self.config.confirm, rng=self.second_rng)
                choice = candidates[self.choose(values)]
            self.switched += choice != candidates[0]
        self.search_seconds += time.perf_counter() - start
        return int(choice)

    def candidates(self, rules: Any, state: Any, me: int, legal: np.ndarray) -> list[int]:
        """The network's ``k`` most likely legal moves, the most likely first (ties: the
        lower action id), read from a determinized state."""
        shown = rules.sample_determinization(state, me, self.rng)
        priors, _values = self.evaluator.evaluate_states(rules, [shown], [me])
        p = np.asarray(priors[0], dtype=np.float64)[legal]
        order = np.argsort(-p, kind="stable")[: self.config.k]
        return [int(legal[i]) for i in order]

    def paired_values(self, rules: Any, state: Any, me: int, candidates: list[int],
                      n: int | None = None, rng: np.random.Generator | None = None
                      ) -> np.ndarray:
        """``(n, len(candidates))``: row ``j`` the values for ``me`` of each candidate played
        from the ``j``-th deal and rolled out with the ``j``-th seed, the deals and seeds
        drawn from ``rng`` (default: the search's generator; ``n`` default: the config's)."""
        n = self.config.n if n is None else n
        rng = self.rng if rng is None else rng
        values = np.empty((n, len(candidates)))
        for j in range(n):
            deal = rules.sample_determinization(state, me, rng)
            mask = rules.legal_mask(deal)
            seed = int(rng.integers(2**63))
            for i, action in enumerate(candidates):
                values[j, i] = self.rollout(rules, deal, mask, action, seed, me)
        self.rollouts += n * len(candidates)
        return values

    @staticmethod
    def gains(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each candidate's mean paired difference over the first (the network's choice,
        whose own is 0) and its standard error, from ``paired_values``' pairs x candidates."""
        diffs = values - values[:, :1]
        return diffs.mean(axis=0), diffs.std(axis=0, ddof=1) / math.sqrt(len(values))

    def choose(self, values: np.ndarray) -> int:
        """The index of the candidate to play: 0 (the network's choice) unless another's
        mean paired difference over it exceeds ``z`` standard errors (and rounding); then
        the best mean of those."""
        mean, se = self.gains(values)
        mean, se = mean[1:], se[1:]
        best = int(np.argmax(mean))
        # at the threshold (a tie: the same value in every pair) the network's choice stays
        if mean[best] > self.config.z * se[best] + _TIE:
            return best + 1
        return 0

    def rollout(self, rules: Any, state: Any, mask: np.ndarray, action: int, seed: int,
                me: int) -> float:
        """``action`` from ``state``, then the heuristic bot in every seat for ``depth``
        actions, the chance and the bot's tie-breaks drawn from ``seed``; ``me``'s value."""
        rng = np.random.default_rng(seed)
        bot = self.bot_for(rules)
        bot.seed(seed + 1)  # a pair's draw of the agent's generator, plus one: not a run seed
        state, mask = rules.transition(state, action, rng, mask)
        depth, steps = self.config.depth, 0
        while not rules.is_terminal(state) and (depth is None or steps < depth):
            choice = bot.act(None, mask, state=state, seat=rules.current_player(state))
            state, mask = rules.transition(state, choice, rng, mask)
            steps += 1
        if rules.is_terminal(state):
            return rank_rewards(rules.scores(state))[me]
        return score_margin(static_scores(self.game, rules, state))[me]

    def rules_for(self, state: Any) -> Any:
        """The game's default rules for the state's player count (built once)."""
        return get_game(self.game).default_rules(state.num_players)

    def bot_for(self, rules: Any) -> Any:
        """The heuristic bot that plays the rollouts under ``rules`` (built once; each
        rollout reseeds it)."""
        bot = self._bots.get(id(rules))
        if bot is None:
            from primeval.training.agents.heuristics import heuristic_class

            bot = self._bots[id(rules)] = heuristic_class(self.game)(rules, seed=0)
        return bot

    def stats(self) -> dict[str, float]:
        """Decisions, searches, switches (after any second look), second looks, rollouts and
        seconds so far."""
        return {"decisions": self.decisions, "searched": self.searched,
                "switched": self.switched, "second_looks": self.second_looks,
                "rollouts": self.rollouts,
                "seconds": self.search_seconds}
