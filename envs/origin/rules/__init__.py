"""Origin rules, one module per part of the rulebook.

``setup`` (6.1: the table, the objectives dealt), ``turn`` (6.2-6.5 and 6.8: the turn menu,
carrying out Evolve, Migrate and Swap, the end of a turn, the end triggers and the final
round), ``moves`` (6.3-6.5: where Evolve, Migrate and Swap may go), ``pawns`` (2: pawn traits
and evolution compatibility), ``rewards`` (5 and 6.6: by territory colour; taking tiles,
drawing and returning cards, strait tokens), ``tiles`` (3: the columns' stacking rule and the
rewards board), ``cards`` (4 and 6.7: playing cards, every yellow effect kind), ``effects``
(the lasting card effects in force and the rule values they change), ``objectives`` (4.1,
every condition kind), ``scoring`` (6.9).
"""

from primeval.envs.origin.rules.engine import OriginRules

__all__ = ["OriginRules"]
