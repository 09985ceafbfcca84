"""Pig, a third game that lives in the tests: the worked example of ``docs/add-a-game.md``.

A few dozen lines of rules (:mod:`.rules`), one encoder (:mod:`.encoders`), a text view
(:mod:`.view`), the env (:mod:`.env`) and this descriptor, :data:`GAME`; no heuristic and no
picture. ``primeval.envs.games.register(GAME)`` adds it to the catalogue (the tests do so in
the ``third_game`` fixture and take it out again).
"""

from primeval.envs.core.descriptor import GameDescriptor

GAME = GameDescriptor(
    name="pig",
    title="Pig",
    version=0,
    env_module="tests.thirdgame.env",
    rules="tests.thirdgame.rules:PigRules",
    config="tests.thirdgame.rules:PigConfig",
    encoders_module="tests.thirdgame.encoders",
    encoders=("flat",),
    view="tests.thirdgame.view:PigView",
    player_counts=(2, 3, 4),
    default_players=2,
    perfect_information=True,
    chance_outcomes=lambda rules: 7,  # die faces 1..6
    env_options="render_mode, max_steps, reward_mode",
    config_note="(target)",
)

__all__ = ["GAME"]
