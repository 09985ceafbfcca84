"""``NumericInfosWrapper``: ``infos[agent]["phase"]`` and ``["decision"]`` as ids, not names.

For libraries that turn every info into a tensor (TorchRL): each name becomes its index in
the game's table ``env.unwrapped.info_names[key]`` (the observation's one-hot order).
:func:`info_names_table` shows the tables in an env's docstring.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pettingzoo import AECEnv

from primeval.envs.core.forms.base import FormWrapper

__all__ = ["INFO_KEYS", "NumericInfosWrapper", "info_names_table"]

#: The infos the ids stand for.
INFO_KEYS: tuple[str, ...] = ("phase", "decision")


def info_names_table(info_names: Mapping[str, Sequence[str]]) -> str:
    """A Markdown table of the info ids (``info_form="ids"``) and the names they stand for,
    one column per info key (for env docstrings); ``""`` shows as *(none)*."""
    keys = list(info_names)
    rows = max((len(names) for names in info_names.values()), default=0)
    lines = [
        "| id | " + " | ".join(f"`{key}`" for key in keys) + " |",
        "|---" * (len(keys) + 1) + "|",
    ]
    for i in range(rows):
        cells = []
        for key in keys:
            names = info_names[key]
            cells.append("" if i >= len(names) else f"`{names[i]}`" if names[i] else "*(none)*")
        lines.append(f"| {i} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


class NumericInfosWrapper(FormWrapper):
    """The named infos as their ids in ``env.unwrapped.info_names``, as
    ``env(info_form="ids")`` gives them.

    Raises:
        ValueError: The core has no table for ``"phase"`` or ``"decision"``.
    """

    info_form = "ids"

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        tables = self.unwrapped.info_names
        missing = [key for key in INFO_KEYS if key not in tables]
        if missing:
            raise ValueError(f'info_form="ids" needs the name tables {missing} (info_names)')
        self._ids = {
            key: {name: i for i, name in enumerate(names)} for key, names in tables.items()
        }

    def _refresh_infos(self) -> None:
        core = self.unwrapped
        for info in core.infos.values():
            for key, name in info.items():
                if key in self._ids and isinstance(name, str):
                    try:
                        info[key] = self._ids[key][name]
                    except KeyError:
                        raise RuntimeError(
                            f"{core.rules.name}: {key} {name!r} is not in info_names[{key!r}]"
                        ) from None
