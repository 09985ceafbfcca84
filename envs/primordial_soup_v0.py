"""Retired: ``primordial_soup_v0`` was replaced by ``primordial_soup_v1``.

v1 plays two rules v0 lacked (issue 15): an amoeba clinging with Holding may use its Tentacle
too, and an amoeba that loses its Defense fight may still escape (Defense, then Escape). Games,
saved states and golden transcripts of v0 do not carry over, so importing v0 fails instead of
silently running v1. Use ``from primeval.envs import primordial_soup_v1``.
"""

raise ImportError(
    "primordial_soup_v0 is retired: use primordial_soup_v1 (from primeval.envs import "
    "primordial_soup_v1). v1 adds two Primordial Soup rules v0 lacked (Holding with Tentacle; "
    "Defense, then Escape), so v0 games and saved states do not carry over; "
    "primordial_soup_v1.env(holding_tentacle=False, escape_after_lost_defense=False) plays the "
    "v0 rules."
)
