"""Origin rules, one module per part of the rulebook (``docs/rules/origin.md``).

``setup`` ("Setup": the table, the objectives dealt), ``turn`` ("A turn", "End of the game"
and "Final round": the turn menu, carrying out Evolve, Migrate and Swap, the end of a turn,
the end triggers), ``moves`` ("Evolve", "Migrate" and "Swap": where each may go), ``pawns``
("Pawns and villages": pawn traits and evolution compatibility), ``rewards`` ("Rewards" and
"Tokens": by territory colour; taking tiles, drawing and returning cards, strait tokens),
``tiles`` ("Rewards board and innovation tiles": the columns' stacking rule and the rewards
board), ``cards`` ("Playing cards": playing cards, every yellow effect kind), ``effects`` (the
lasting card effects in force and the rule values they change), ``objectives`` ("Objective
cards": every condition kind), ``scoring`` ("Final scoring").
"""

from primeval.envs.origin.rules.engine import OriginRules

__all__ = ["OriginRules"]
