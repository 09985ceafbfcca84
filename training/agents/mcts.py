"""Monte Carlo tree search on the rules: UCT, chance nodes, determinized information sets.

:class:`MCTSAgent` searches from the rules state it is given (``state=``, as the heuristic
bots read it) with the rules API only: ``legal_mask``, ``current_player``, ``is_terminal``,
``scores`` and ``transition``; no env in the loop. Each decision runs simulations until the
budget is spent (a count, ``sims``, or seconds, ``time``; both: whichever ends first) and
plays the root action visited most. A decision with one legal action is answered at once.

One simulation:

1. **Determinize.** In a game with hidden cards (Origin) the simulation starts from
   ``rules.sample_determinization(state, me, rng)``: what the acting player sees, the rest
   dealt anew. The real state's hidden cards are never read, so two states the player cannot
   tell apart give the same search (information-set MCTS by determinization, "single
   observer": one tree over action histories; a child's UCB counts the simulations in which
   it was legal, its *availability*, instead of its parent's visits). A game whose rules do
   not override ``sample_determinization`` (Primordial Soup) has nothing hidden: every
   simulation starts from the state itself, and each node keeps the state it stands for.
2. **Select and expand.** At a player's node, an action not tried yet (uniformly at random)
   becomes a new child, else the child with the best ``Q + c * sqrt(ln(availability) / N)``
   for the player to move. With ``prior=W > 0`` the game's heuristic bot names its choice at
   each new node: it is tried first and gets a bonus ``W / (N + 1)`` (progressive bias), so
   a small budget starts from the bot's play and the search overrides it where it finds
   better. ``Q`` is that player's mean value: values are vectors, one entry
   per seat, so each node selects for whoever moves there (3-4 players, no minimax sign).
   Chance is explicit (:class:`~primeval.envs.core.chance.ExplicitChance`): the dice, draws
   and shuffles of a transition are chance nodes whose outcome is drawn by its probability,
   with one child per outcome. A forced move (one legal action) adds no branching and does
   not end the descent.
3. **Roll out** from the new node with ``rollout`` (``random``: uniform over the mask;
   ``heuristic``: the game's rule-based bot) through ``rules.transition`` with numpy dice,
   for at most ``depth`` actions (``depth=end``: to the end of the game).
4. **Evaluate and back up.** A finished game is worth its rank rewards (first +1, last -1,
   linear between, ties share: :func:`~primeval.envs.core.rewards.rank_rewards`); a rollout
   cut at ``depth`` is valued by the current scores (in Primordial Soup, whose ladder moves
   only at a round's scoring, the position plus the advance the amoebas and genes would give
   now), ranked (``eval=rank``) or as the score minus the mean over the spread, in [-1, 1]
   (``eval=margin``). The vector is added to every node on the path.

The spec (``mcts:KEY=VALUE,...``, as ``primeval evaluate`` and ``play`` take it) and its
defaults: :mod:`primeval.training.agents.mcts_config`.

**With a network** (``net=PATH``: a policy-value network's JSON, or a PPO ``.zip``; see
:mod:`primeval.training.expert.network` and docs/search.md) the search is PUCT: a decision
node reached for the first time is a leaf, evaluated by the network from the encoder's
observation of its state (a determinized state in Origin: sampled hidden cards, never the
real ones) for the seat to move; its policy becomes the node's priors and its value vector
(one entry per seat) is backed up max-n style, each node selecting by
``Q + c * P * sqrt(N) / (1 + n)`` for the seat that moves there. ``batch=K`` descends K times
under a virtual loss before one forward pass values the K leaves. ``temp=T`` takes the
priors to the power ``1/T``: a trained policy can be so sure of itself (Primordial Soup's
PPO agent: about 0.3 nats) that at ``T=1`` the search seldom plays another move (2% of its
decisions at 25 simulations). ``mix=M`` values each leaf as ``1 - M`` times the network's
value plus ``M`` times a rollout's result from it (``rollout``, ``depth`` and ``eval`` as
without a network: AlphaGo's mixed leaf evaluation); without ``mix``, ``rollout``, ``depth``
and ``eval`` are not used (and refused) with a network, and ``prior`` never is.

**An opponent model** (``model=heuristic``): the other seats are not searched for their own
values but play the game's heuristic bot's choice at each of their nodes (the bot reads the
node's state: in Origin a determinized one, so its hidden cards are sampled, never the real
ones). The search then plans the acting seat's moves against that model, with chance as
the only other branching: an expectimax over the model's play rather than max-n. It plans
against the bots as they play; against anyone who plays otherwise its model is wrong.
docs/search.md measures it against the bots.
"""

from __future__ import annotations

import math
import time
from dataclasses import replace
from typing import Any

import numpy as np

from primeval.envs.core.chance import ChanceNode, ExplicitChance
from primeval.envs.core.frames import FrameRules
from primeval.envs.core.rewards import rank_rewards
from primeval.envs.games import get_game
from primeval.training.agents.mcts_config import MCTSConfig, parse_mcts_spec

__all__ = ["MCTSAgent", "MCTSConfig", "parse_mcts_spec", "score_margin", "static_scores"]

class _Budget:
    """One search's budget: ``config.sims`` simulations or ``config.time`` seconds, whichever
    ends first; ``sims`` counts those run, from ``start``."""

    __slots__ = ("deadline", "limit", "sims", "start")

    def __init__(self, config: MCTSConfig) -> None:
        self.start = time.perf_counter()
        self.deadline = None if config.time is None else self.start + config.time
        self.limit = config.sims
        self.sims = 0

    def spend(self, k: int) -> bool:
        """Count ``k`` more simulations; whether the budget is spent."""
        self.sims += k
        if self.limit is not None and self.sims >= self.limit:
            return True
        return self.deadline is not None and time.perf_counter() >= self.deadline


class _Node:
    """Statistics of one node: visits, summed value per seat, availability, children by
    action and by chance outcome; the state it stands for when nothing is hidden."""

    __slots__ = ("actions", "avail", "hint", "legal", "n", "outcomes", "priors", "state", "w")

    def __init__(self, num_players: int) -> None:
        self.n = 0
        self.avail = 0
        self.w = [0.0] * num_players
        self.actions: dict[int, _Node] = {}
        self.outcomes: dict[int, _Node] = {}
        self.state: Any = None
        self.legal: list[int] | None = None
        self.hint = -1
        self.priors: np.ndarray | None = None


class MCTSAgent:
    """UCT search over the rules, for either game (see the module docstring).

    Args:
        game: A game of the catalogue (``primordial_soup``, ``origin``).
        config: The search settings, an :class:`MCTSConfig` or a spec string.
        rules: The game's rules object (best: ``env.unwrapped.rules``); ``None`` builds the
            default rules for the state's player count on first use.
        seed: Seed of the agent's one generator.
        evaluator: The network guiding the search, instead of loading the config's ``net``
            (anything with ``check_env(game, players)`` and ``evaluate_states(rules, states,
            seats) -> (priors, values)``, as :mod:`primeval.training.expert.network` gives).
        trust_checkpoint: For ``net=`` a PPO zip that needs unpickling (see
            :mod:`~primeval.training.agents.checkpoint`).

    Attributes:
        last_simulations: Simulations run for the last searched decision.
        simulations, searches, search_seconds: Totals over the agent's life (for sims/s).
        evaluations, forward_passes: The network's leaf evaluations and its calls.
        root_noise: ``(alpha, fraction)``: Dirichlet noise mixed into the root's priors
            (expert iteration's self-play sets it), or ``None``.
    """

    uses_observation = False  # reads the rules state

    def __init__(self, game: str, config: MCTSConfig | str = "mcts", rules: Any = None,
                 seed: int | None = None, evaluator: Any = None,
                 trust_checkpoint: bool = False) -> None:
        self.game = get_game(game).name
        self.config = parse_mcts_spec(config) if isinstance(config, str) else config
        self.evaluator = evaluator
        if evaluator is None and self.config.net is not None:
            from primeval.training.expert.play import load_evaluator

            self.evaluator = load_evaluator(self.config.net, trust_checkpoint=trust_checkpoint)
        if self.evaluator is not None and getattr(self.evaluator, "spec", None) is not None \
                and self.evaluator.spec["game"] != self.game:
            raise ValueError(f"mcts net={self.config.net}: the network plays "
                             f"{self.evaluator.spec['game']}, not {self.game}")
        self.root_noise: tuple[float, float] | None = None
        self.evaluations = 0
        self.forward_passes = 0
        if get_game(game).heuristic is None and self.config.model == "heuristic":
            raise ValueError(f"mcts model=heuristic: game {self.game!r} has no heuristic "
                             "agent (its descriptor names none); use model=maxn")
        if get_game(game).heuristic is None and self.evaluator is None:  # the heuristic rolls out and hints the prior
            if self.config.rollout == "heuristic":
                raise ValueError(f"mcts rollout=heuristic: game {self.game!r} has no "
                                 "heuristic agent (its descriptor names none); use "
                                 "rollout=random")
            if self.config.prior and isinstance(config, str) and "prior=" in config:
                raise ValueError(f"mcts prior={self.config.prior}: game {self.game!r} has no "
                                 "heuristic agent to hint it; use prior=0")
            self.config = replace(self.config, prior=0.0)
        self.name = self.config.spec()
        self._given_rules = rules
        #: Whether a chance transition is run once with its outcomes sampled inside it
        #: (:meth:`ExplicitChance.apply_sampled`), or, as the plain reference the tests hold
        #: it to, once per chance node met: the same searches either way.
        self.sampled_chance = True
        self.seed(seed)
        self.last_simulations = 0
        self.simulations = 0
        self.searches = 0
        self.search_seconds = 0.0

    def seed(self, seed: int | None) -> None:
        """Reseed the generator (the heuristic bot it asks is seeded from it anew)."""
        self.rng = np.random.default_rng(seed)
        self._rollout_bots: dict[int, Any] = {}

    def check_env_spec(self, spec: dict[str, Any]) -> None:
        """Refuse a network for another game or player count (tournaments call it)."""
        if self.evaluator is not None and hasattr(self.evaluator, "check_env"):
            self.evaluator.check_env(spec["game"], spec["players"])

    # -- the Agent protocol ----------------------------------------------------------------

    def act(self, observation: Any, action_mask: np.ndarray, *, state: Any = None,
            seat: int | None = None) -> int:
        """The most visited root action after the search.

        Raises:
            ValueError: ``state`` is None (the search needs the rules state), or the mask
                has no legal action.
        """
        if state is None:
            raise ValueError("MCTSAgent.act needs the rules state: pass "
                             "state=env.unwrapped.game_state (and seat=the acting seat)")
        mask = np.asarray(action_mask).astype(bool, copy=False)
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError("MCTSAgent.act: the action mask has no legal action")
        if legal.size == 1:
            return int(legal[0])
        rules = self.rules_for(state)
        me = rules.current_player(state) if seat is None else seat
        root = self.search(rules, state, me)
        return self.best_action(root, legal.tolist(), me)

    @staticmethod
    def best_action(root: _Node, legal: list[int], me: int) -> int:
        """The legal root action visited most (ties: the better mean value for ``me``)."""
        best, best_key = int(legal[0]), None
        for a in legal:
            child = root.actions.get(a)
            if child is None:
                continue
            key = (child.n, child.w[me] / child.n)
            if best_key is None or key > best_key:
                best, best_key = a, key
        return best

    # -- the search ------------------------------------------------------------------------

    def rules_for(self, state: Any) -> Any:
        """The rules given at construction, or the game's default rules for the state's
        player count (built once).

        Raises:
            ValueError: The given rules are for another player count than the state.
        """
        if self._given_rules is not None:
            expected = getattr(self._given_rules, "num_players", state.num_players)
            if expected != state.num_players:
                raise ValueError(f"MCTSAgent was given rules for {expected} players but the "
                                 f"state has {state.num_players}")
            return self._given_rules
        return get_game(self.game).default_rules(state.num_players)

    def search(self, rules: Any, state: Any, me: int) -> _Node:
        """Run the budget's simulations from ``state`` for the acting seat ``me``; the root.

        In a game with hidden information only ``rules.sample_determinization(state, me,
        rng)`` (or the ``determinizer`` that gives the same) reads ``state``."""
        if self.evaluator is not None:
            return self._search_net(rules, state, me)
        config = self.config
        hidden = _has_hidden_information(rules)
        chance = ExplicitChance(rules)
        root = _Node(state.num_players)
        if not hidden:
            root.state = state
        budget = _Budget(config)
        deal = _determinizer(rules, state, me) if hidden else None
        while True:
            start_state = deal(self.rng) if hidden else state
            self._simulate(rules, chance, root, start_state, not hidden, me)
            if budget.spend(1):
                break
        self._account(budget)
        return root

    def _account(self, budget: _Budget) -> None:
        """Add a finished search's simulations and time to the agent's totals."""
        self.last_simulations = budget.sims
        self.simulations += budget.sims
        self.searches += 1
        self.search_seconds += time.perf_counter() - budget.start

    def _simulate(self, rules: Any, chance: ExplicitChance, root: _Node, state: Any,
                  cache: bool, me: int) -> None:
        prior = self.config.prior
        modelled = self.config.model == "heuristic"
        node = root
        path = [root]
        expanded = False
        walk: list[tuple[int, Any]] = []
        mask = None  # the legal mask of the state the walk stops at, when the step gave it
        while True:
            node, state = self._through_chance(chance, node, state, path, cache, walk)
            if expanded or rules.is_terminal(state):
                break
            if cache and node.legal is not None:
                legal = node.legal
            else:
                if mask is None:
                    mask = rules.legal_mask(state)
                legal = np.flatnonzero(mask).tolist()
                if cache:
                    node.legal = legal
                if prior and node.hint < 0 and len(legal) > 1:
                    node.hint = self._rollout_bot(rules).act(
                        None, mask, state=state, seat=rules.current_player(state))
            if len(legal) == 1:
                action = legal[0]
            elif modelled and rules.current_player(state) != me:
                action = self._model_action(rules, node, state, mask, cache)
            else:
                action, child = self._select(node, legal, rules.current_player(state),
                                             self.config.c, prior)
                if child is None:
                    node.actions[action] = _Node(len(root.w))
                    node.actions[action].avail = 1
                    expanded = True
            node, state, walk, mask = self._child(chance, node, state, action, path, cache,
                                                  mask)
        _backup(path, self._rollout(rules, state, mask))

    def _through_chance(self, chance: ExplicitChance, node: _Node, state: Any,
                        path: list[_Node], cache: bool,
                        walk: list[tuple[int, Any]] = ()) -> tuple[_Node, Any]:
        """Walk the chance nodes from ``state`` (an outcome sampled by its probability at
        each), adding their tree nodes to ``path``; the first decision or end reached.
        ``walk``: the outcomes :meth:`_child` drew already and what each reached.

        Where the tree keeps no state for an outcome's node, the rest of the transition is
        sampled in one run of the rules (:meth:`ExplicitChance.apply_chance_sampled`): the
        same outcomes, nodes and states as the plain walk (``sampled_chance = False``: one
        ``apply_chance`` per chance node, the rules' transition run again for each), with
        ``self.rng`` drawn alike."""
        for outcome, reached in walk:
            node, state = self._outcome(node, outcome, reached, path, cache)
        while isinstance(state, ChanceNode):
            outcome = state.event.sample(self.rng)
            child = node.outcomes.get(outcome)
            if cache and child is not None and child.state is not None:
                node, state = self._outcome(node, outcome, child.state, path, cache)
            elif not self.sampled_chance:
                node, state = self._outcome(node, outcome, chance.apply_chance(state, outcome),
                                            path, cache)
            else:
                for drawn, reached in chance.apply_chance_sampled(state, outcome, self.rng):
                    node, state = self._outcome(node, drawn, reached, path, cache)
        return node, state

    @staticmethod
    def _outcome(node: _Node, outcome: int, reached: Any, path: list[_Node],
                 cache: bool) -> tuple[_Node, Any]:
        """The tree node of ``outcome`` under ``node`` (made if new, added to ``path``) and
        its state: ``reached``, kept on the node when the tree keeps states (a state kept
        already is the same one, and is what the walk goes on from)."""
        child = node.outcomes.get(outcome)
        if child is None:
            child = node.outcomes[outcome] = _Node(len(node.w))
        if cache:
            if child.state is None:
                child.state = reached
            else:
                reached = child.state
        path.append(child)
        return child, reached

    def _child(self, chance: ExplicitChance, node: _Node, state: Any, action: int,
               path: list[_Node], cache: bool, mask: np.ndarray | None = None
               ) -> tuple[_Node, Any, list[tuple[int, Any]], np.ndarray | None]:
        """Take ``action``: its tree node (made if new, added to ``path``), its state (kept
        on the node when the tree keeps states), and, if that is a chance node, the outcomes
        drawn and states reached on to the next decision, for :meth:`_through_chance`
        (one run of the transition, :meth:`ExplicitChance.apply_sampled`; nothing drawn
        with ``sampled_chance = False``); given ``state``'s legal ``mask``, the legal mask
        of the decision reached too (:meth:`ExplicitChance.transition_sampled`: no mask
        carried on the states, nor compared), else ``None``."""
        child = node.actions.get(action)
        if child is None:
            child = node.actions[action] = _Node(len(node.w))
        walk: list[tuple[int, Any]] = []
        end_mask = None
        if cache and child.state is not None:
            state = child.state
        else:
            if not self.sampled_chance:
                state = chance.apply(state, action)
            elif mask is not None:
                ((_, state), *walk), end_mask = chance.transition_sampled(
                    state, action, self.rng, mask)
            else:
                (_, state), *walk = chance.apply_sampled(state, action, self.rng)
            if cache:
                child.state = state
        path.append(child)
        return child, state, walk, end_mask

    def _model_action(self, rules: Any, node: _Node, state: Any, mask: np.ndarray | None,
                      cache: bool) -> int:
        """The opponent model's action at another seat's node (``model=heuristic``): the
        heuristic bot's choice, kept on the node when the tree keeps states (no hidden
        information: the node is one state), else asked anew of each determinization."""
        if cache and node.hint >= 0:
            return node.hint
        if mask is None:
            mask = rules.legal_mask(state)
        action = int(self._rollout_bot(rules).act(None, mask, state=state,
                                                  seat=rules.current_player(state)))
        if cache:
            node.hint = action
        return action

    def _select(self, node: _Node, legal: list[int], player: int, c: float, prior: float
                ) -> tuple[int, _Node | None]:
        """An untried action (the heuristic's choice first when there is a prior, else
        uniformly; child ``None``), else the best UCB child for ``player``, the heuristic's
        choice with a bonus ``prior / (N + 1)``. Every legal child's availability goes up by
        one."""
        children = node.actions
        untried = []
        for a in legal:
            child = children.get(a)
            if child is None:
                untried.append(a)
            else:
                child.avail += 1
        if untried:
            if node.hint in untried:
                return node.hint, None
            action = untried[int(self.rng.integers(len(untried)))] if len(untried) > 1 \
                else untried[0]
            return action, None
        best_action, best_child, best_value = -1, None, -math.inf
        for a in legal:
            child = children[a]
            value = child.w[player] / child.n + c * math.sqrt(math.log(child.avail) / child.n)
            if a == node.hint:
                value += prior / (child.n + 1)
            if value > best_value:
                best_action, best_child, best_value = a, child, value
        return best_action, best_child

    # -- the search with a network (PUCT, leaf values, batched) -----------------------------

    def _search_net(self, rules: Any, state: Any, me: int) -> _Node:
        """The budget's simulations guided by the evaluator; ``config.batch`` descents at a
        time, each leaf under a virtual loss until the batch's one forward pass values it."""
        config = self.config
        self.evaluator.check_env(self.game, state.num_players)
        hidden = _has_hidden_information(rules)
        chance = ExplicitChance(rules)
        num_players = state.num_players
        root = _Node(num_players)
        if not hidden:
            root.state = state
        budget = _Budget(config)
        deal = _determinizer(rules, state, me) if hidden else None
        while True:
            k = 1 if root.priors is None else config.batch  # the root is valued first, alone
            if config.sims is not None:
                k = min(k, config.sims - budget.sims)
            pending: list[tuple[list[_Node], _Node, Any]] = []
            for _ in range(k):
                start_state = deal(self.rng) if hidden else state
                path, leaf, leaf_state, value = self._descend_net(rules, chance, root,
                                                                  start_state, not hidden, me)
                if value is None:
                    for node in path:  # virtual loss: a visit lost for every seat
                        node.n += 1
                        node.w = [w - 1.0 for w in node.w]
                    pending.append((path, leaf, leaf_state))
                else:
                    _backup(path, value)
            if pending:
                leaves: dict[int, tuple[_Node, Any]] = {}
                for _path, leaf, leaf_state in pending:
                    leaves.setdefault(id(leaf), (leaf, leaf_state))
                states = [s for _leaf, s in leaves.values()]
                priors, values = self.evaluator.evaluate_states(
                    rules, states, [rules.current_player(s) for s in states])
                self.evaluations += len(states)
                self.forward_passes += 1
                value_of = {}
                for (key, (leaf, _s)), p, v in zip(leaves.items(), priors, values, strict=True):
                    if leaf.priors is None:
                        leaf.priors = np.asarray(p, dtype=np.float64)
                        if leaf is root and self.root_noise is not None:
                            self._add_root_noise(root, rules.legal_mask(_s))
                    value_of[key] = [float(x) for x in v]
                    if config.mix:  # AlphaGo's mixed leaf: the network's and a rollout's
                        rolled = self._rollout(rules, _s)
                        value_of[key] = [(1.0 - config.mix) * x + config.mix * r
                                         for x, r in zip(value_of[key], rolled, strict=True)]
                for path, leaf, _s in pending:
                    for node in path:
                        node.n -= 1
                        node.w = [w + 1.0 for w in node.w]
                    _backup(path, value_of[id(leaf)])
            if budget.spend(k):
                break
        self._account(budget)
        return root

    def _add_root_noise(self, root: _Node, mask: np.ndarray) -> None:
        alpha, fraction = self.root_noise
        legal = np.flatnonzero(mask)
        if legal.size < 2:
            return
        noise = self.rng.dirichlet([alpha] * legal.size)
        priors = root.priors.copy()
        priors[legal] = (1 - fraction) * priors[legal] + fraction * noise
        root.priors = priors

    def _descend_net(self, rules: Any, chance: ExplicitChance, root: _Node, state: Any,
                     cache: bool, me: int
                     ) -> tuple[list[_Node], _Node, Any, list[float] | None]:
        """One descent: the path, the node it stops at, that node's state, and the value of
        a finished game (``None``: a decision not evaluated yet, for the network). With the
        heuristic as the opponent model the other seats' nodes are walked through (the
        model's action), so every leaf is a decision of ``me``."""
        modelled = self.config.model == "heuristic"
        node = root
        path = [root]
        walk: list[tuple[int, Any]] = []
        while True:
            node, state = self._through_chance(chance, node, state, path, cache, walk)
            if rules.is_terminal(state):
                return path, node, state, rank_rewards(rules.scores(state))
            mask = None
            if cache and node.legal is not None:
                legal = node.legal
            else:
                mask = rules.legal_mask(state)
                legal = np.flatnonzero(mask).tolist()
                if cache:
                    node.legal = legal
            if len(legal) == 1:
                action = legal[0]
            elif modelled and rules.current_player(state) != me:
                action = self._model_action(rules, node, state, mask, cache)
            elif node.priors is None:
                return path, node, state, None
            else:
                action = self._select_puct(node, legal, rules.current_player(state))
            node, state, walk, _ = self._child(chance, node, state, action, path, cache)

    def _select_puct(self, node: _Node, legal: list[int], player: int) -> int:
        """The legal action with the best ``Q + c * P * sqrt(N) / (1 + n)`` for ``player``:
        ``P`` the node's priors over this legal set (renormalised; a floor keeps an action
        the evaluated determinization did not allow reachable), ``Q`` the child's mean value
        for ``player`` (an unvisited child: the node's own mean)."""
        priors = node.priors[legal]
        priors = np.maximum(priors, 1e-3 / len(legal))
        if self.config.temp != 1.0:
            priors = priors ** (1.0 / self.config.temp)
        priors = (priors / priors.sum()).tolist()
        c = self.config.c
        sqrt_n = math.sqrt(max(node.n, 1))
        fpu = node.w[player] / node.n if node.n else 0.0
        children = node.actions
        best_action, best_value = legal[0], -math.inf
        for a, p in zip(legal, priors, strict=True):
            child = children.get(a)
            if child is None or child.n == 0:
                value = fpu + c * p * sqrt_n
            else:
                value = child.w[player] / child.n + c * p * sqrt_n / (1 + child.n)
            if value > best_value:
                best_action, best_value = a, value
        return best_action

    @staticmethod
    def visit_distribution(root: _Node, num_actions: int) -> np.ndarray:
        """The root's visits per action, normalised (expert iteration's policy target)."""
        visits = np.zeros(num_actions, dtype=np.float32)
        for a, child in root.actions.items():
            visits[a] = child.n
        total = visits.sum()
        return visits / total if total else visits

    def _rollout(self, rules: Any, state: Any, mask: np.ndarray | None = None) -> list[float]:
        """Play on from ``state`` (its legal ``mask``, when the caller has it) with the
        rollout policy; the value vector."""
        rng = self.rng
        depth = self.config.depth
        steps = 0
        if not rules.is_terminal(state):
            if mask is None:
                mask = rules.legal_mask(state)
            bot = self._rollout_bot(rules) if self.config.rollout == "heuristic" else None
            while depth is None or steps < depth:
                if bot is None:
                    legal = np.flatnonzero(mask)
                    action = int(legal[rng.integers(legal.size)]) if legal.size > 1 \
                        else int(legal[0])
                else:
                    action = bot.act(None, mask, state=state, seat=rules.current_player(state))
                state, mask = rules.transition(state, action, rng, mask)
                steps += 1
                if rules.is_terminal(state):
                    break
        if rules.is_terminal(state):
            return rank_rewards(rules.scores(state))
        scores = static_scores(self.game, rules, state)
        return rank_rewards(scores) if self.config.eval == "rank" else score_margin(scores)

    def _rollout_bot(self, rules: Any) -> Any:
        bot = self._rollout_bots.get(id(rules))
        if bot is None:
            from primeval.training.agents.heuristics import heuristic_class

            bot = heuristic_class(self.game)(rules, seed=int(self.rng.integers(2**63)))
            self._rollout_bots[id(rules)] = bot
        return bot

    def stats(self) -> dict[str, float]:
        """Searches, simulations and simulations per second so far."""
        return {"searches": self.searches, "simulations": self.simulations,
                "seconds": self.search_seconds,
                "sims_per_second": self.simulations / self.search_seconds
                if self.search_seconds else 0.0}


def _backup(path: list[_Node], value: list[float]) -> None:
    """Add one visit and the value vector to every node of the path."""
    for node in path:
        node.n += 1
        w = node.w
        for i, v in enumerate(value):
            w[i] += v


def static_scores(game: str, rules: Any, state: Any) -> list[float]:
    """The scores a search judges a cut rollout by: the game's ``static_score`` (its
    descriptor's; Primordial Soup's adds the advance the amoebas and genes would give now),
    else the rules' current scores."""
    static = get_game(game).static_score
    return static(rules, state) if static is not None else rules.scores(state)


def score_margin(scores: list[float]) -> list[float]:
    """Each score minus the mean, over the spread (max - min): in [-1, 1], summing to 0."""
    spread = max(scores) - min(scores)
    if spread == 0:
        return [0.0] * len(scores)
    mean = sum(scores) / len(scores)
    return [(s - mean) / spread for s in scores]


def _determinizer(rules: Any, state: Any, me: int):
    """``rules.sample_determinization(state, me, rng)`` as a function of ``rng``: the rules'
    ``determinizer`` where they have one (what every draw shares worked out once a search),
    else that call."""
    make = getattr(rules, "determinizer", None)
    if make is not None:
        return make(state, me)
    return lambda rng: rules.sample_determinization(state, me, rng)


def _has_hidden_information(rules: Any) -> bool:
    """Whether the rules override ``sample_determinization`` (the shared default is a copy:
    nothing hidden)."""
    method = getattr(type(rules), "sample_determinization", None)
    if method is None:
        raise TypeError(f"{type(rules).__name__} has no sample_determinization; MCTS needs it")
    return method is not FrameRules.sample_determinization
