"""Primordial Soup (Ursuppe, Matthäus & Nestel 1997) for 3 or 4 players.

:data:`GAME` is the game's descriptor, what the catalogue (:mod:`primeval.envs.games`) lists.
"""

from typing import Any

from primeval.envs.core.descriptor import GameDescriptor

#: Loaded when first asked for, so that the catalogue (``import primeval``) reads the
#: descriptor without loading the rules.
_LAZY = {
    "PrimordialSoupConfig": "primeval.envs.primordial_soup.config",
    "PrimordialSoupRules": "primeval.envs.primordial_soup.rules",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _chance_outcomes(rules: Any) -> int:
    return max(7, len(rules.config.environment_deck))  # die faces 1..6


def projected_scores(rules: Any, state: Any) -> list[float]:
    """The ladder moves only when a round is scored: each player's position plus the advance
    the next scoring would give them now (amoebas and genes); what MCTS judges a cut
    rollout by."""
    from primeval.envs.primordial_soup.rules.scoring import advance_distance

    return [ps.score + advance_distance(ps) for ps in state.players]


GAME = GameDescriptor(
    name="primordial_soup",
    title="Primordial Soup",
    version=1,
    env_module="primeval.envs.primordial_soup_v1",
    rules="primeval.envs.primordial_soup.rules:PrimordialSoupRules",
    config="primeval.envs.primordial_soup.config:PrimordialSoupConfig",
    encoders_module="primeval.envs.primordial_soup.encoders",
    encoders=("flat", "planes", "graph"),
    view="primeval.envs.primordial_soup.view:PrimordialSoupView",
    player_counts=(3, 4),
    default_players=4,
    perfect_information=True,
    chance_outcomes=_chance_outcomes,
    picture="primeval.envs.primordial_soup.view_picture",
    picture_argument=lambda env: env.rules.config,
    static_score=projected_scores,
    heuristic="primeval.training.agents.heuristics.primordial_soup:PrimordialSoupHeuristic",
    docs="docs/rules/primordial_soup.md",
    env_options="render_mode, max_steps, reward_mode='rank'|'win'|'score'",
    rules_package="primeval.envs.primordial_soup.rules",
)

__all__ = ["GAME", "PrimordialSoupConfig", "PrimordialSoupRules", "projected_scores"]
