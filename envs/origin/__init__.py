"""Origin (Andrea Mainini, Matagot 2013) for 2 to 4 players.

:data:`GAME` is the game's descriptor, what the catalogue (:mod:`primeval.envs.games`) lists.
"""

from typing import Any

from primeval.envs.core.descriptor import GameDescriptor


def _chance_outcomes(rules: Any) -> int:
    data, comps = rules.data, rules.data.components
    greens = sum(1 for t in data.world.territories if t.colour == "green")
    return max(
        3,
        rules.num_players,
        len(data.cards),
        sum(comps.innovation_tiles.values()),
        greens,
        len(data.world.straits),
        len(comps.innovation_tiles),
    )


GAME = GameDescriptor(
    name="origin",
    title="Origin",
    version=0,
    env_module="primeval.envs.origin_v0",
    rules="primeval.envs.origin.rules:OriginRules",
    config="primeval.envs.origin.config:OriginConfig",
    encoders_module="primeval.envs.origin.encoders",
    encoders=("flat", "graph", "flat_objectives"),
    view="primeval.envs.origin.view:OriginView",
    player_counts=(2, 3, 4),
    default_players=3,
    perfect_information=False,
    chance_outcomes=_chance_outcomes,
    picture="primeval.envs.origin.view_picture",
    picture_argument=lambda env: env.rules,
    heuristic="primeval.training.agents.heuristics.origin:OriginHeuristic",
    docs="docs/rules/origin.md",
    env_options="render_mode, max_steps=5000, reward_mode",
    config_note="(map_file, cards_file, ...)",
    rules_package="primeval.envs.origin.rules",
)

__all__ = ["GAME"]
