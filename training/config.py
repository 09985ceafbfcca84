"""The one config loader of every training backend: a YAML file (a path, or a shipped config
by name such as ``origin/default``) plus ``key=value`` overrides, validated into frozen
dataclasses.

A backend declares its config as frozen dataclasses whose fields each carry their
documentation as the string literal under them; :func:`load` builds one from a mapping,
refusing unknown keys (with a did-you-mean) and wrong types (naming the expected type), and
:func:`describe` prints every field, dotted, with its type, default and documentation
(``primeval train --help-config``). Checking a config needs neither torch nor ray.
"""

from __future__ import annotations

import ast
import dataclasses
import difflib
import inspect
import re
import textwrap
from collections.abc import Iterable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import yaml

T = TypeVar("T")

#: The package whose YAML files are the shipped configs (``configs/`` in the source tree).
CONFIGS_PACKAGE = "primeval.configs"


class ConfigError(ValueError):
    """A training configuration is invalid; the message names the key."""


def positive(config: Any, *names: str) -> None:
    """Refuse a value that is not > 0 (NaN included) in any of the named fields."""
    for name in names:
        value = getattr(config, name)
        if not value > 0:
            raise ConfigError(f"{name}={value!r}: must be > 0")


def check_env_fields(config: Any, *, no_files: bool = False) -> None:
    """The checks every training config shares: ``game`` in the catalogue, ``players`` and
    ``encoder`` among the game's, ``seed`` at least 0, and ``env`` (rules overrides) accepted
    by the game's env, whose own checks name a bad field or value. ``no_files``: refuse
    ``*_file`` options in ``env`` (a config whose env spec is saved beside a network)."""
    from primeval.envs.games import GAMES, make_raw_env

    if config.game not in GAMES:
        raise ConfigError(f"game={config.game!r}: allowed {sorted(GAMES)}")
    game = GAMES[config.game]
    if config.players not in game.player_counts:
        raise ConfigError(f"players={config.players!r}: {config.game} allows "
                          f"{game.player_counts}")
    if config.encoder not in game.encoders:
        raise ConfigError(f"encoder={config.encoder!r}: {config.game} allows "
                          f"{game.encoders}")
    if config.seed < 0:
        raise ConfigError(f"seed={config.seed!r}: must be >= 0")
    if not config.env:
        return
    if no_files:
        files = sorted(k for k in config.env if str(k).endswith("_file"))
        if files:
            raise ConfigError(f"env: {files}: a network's env spec cannot name data files")
    try:
        make_raw_env(config.game, config.players, obs_encoder=config.encoder, **config.env)
    except (ValueError, TypeError) as exc:
        raise ConfigError(f"env: {exc}") from None


def did_you_mean(name: str, allowed: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` for the closest allowed name, or an empty string."""
    close = difflib.get_close_matches(name, list(allowed), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


# -- building a dataclass from a mapping ----------------------------------------------------


def _default(spec: dataclasses.Field) -> Any:
    return spec.default if spec.default is not dataclasses.MISSING else spec.default_factory()


def build(cls: type[T], data: Any, where: str = "") -> T:
    """Build the config dataclass ``cls`` from a mapping, checking keys and value types.

    Field metadata: ``item`` (a dataclass: the field is a list of them, a tuple once
    built), ``strings`` (a list of strings). A field whose default is a dataclass is a
    nested section; any other field's value must have its default's type (an int is
    accepted for a float).
    """
    prefix = f"{where}: " if where else ""
    if not isinstance(data, dict):
        raise ConfigError(f"{prefix}expected a mapping, got {type(data).__name__}")
    known = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(known), key=str)
    if unknown:
        hint = did_you_mean(str(unknown[0]), known) if len(unknown) == 1 else ""
        raise ConfigError(f"{prefix}unknown key(s) {unknown}; allowed: {sorted(known)}{hint}")
    kwargs = {}
    for name, value in data.items():
        key = f"{where}.{name}" if where else name
        spec = known[name]
        default = _default(spec)
        item = spec.metadata.get("item")
        if item is not None:
            if not isinstance(value, list):
                raise ConfigError(f"{key}: expected a list, got {type(value).__name__}")
            kwargs[name] = tuple(build(item, v, f"{key}[{i}]") for i, v in enumerate(value))
        elif spec.metadata.get("strings"):
            if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
                raise ConfigError(f"{key}: expected a list of strings, got {value!r}")
            kwargs[name] = tuple(value)
        elif dataclasses.is_dataclass(default):
            kwargs[name] = build(type(default), value, key)
        else:
            kwargs[name] = coerce(key, value, default)
    try:
        return cls(**kwargs)
    except ConfigError as exc:
        raise ConfigError(f"{prefix}{exc}") from None


def coerce(key: str, value: Any, default: Any) -> Any:
    """Check a value against the type of its default (ints are accepted for floats)."""
    if isinstance(default, tuple):
        if isinstance(value, list | tuple) and all(
            isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value
        ):
            return tuple(value)
        raise ConfigError(f"{key}: expected a list of positive ints, got {value!r}")
    kind = type(default)
    accepted = (int, float) if kind is float else (kind,)
    if isinstance(value, accepted) and (kind is bool or not isinstance(value, bool)):
        return float(value) if kind is float else value
    raise ConfigError(f"{key}: expected {kind.__name__}, got {value!r} ({type(value).__name__})")


def to_dict(config: Any) -> dict[str, Any]:
    """A config as plain YAML data (tuples as lists, nested sections as mappings)."""

    def plain(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [plain(v) for v in value]
        return value

    return plain(dataclasses.asdict(config))


# -- where a config comes from --------------------------------------------------------------


def shipped_configs() -> list[str]:
    """The names of the shipped configs (``primordial_soup/default``, ...), sorted."""
    names = []
    root = resources.files(CONFIGS_PACKAGE)
    for folder in root.iterdir():
        if folder.is_dir() and not folder.name.startswith(("_", ".")):
            names += [
                f"{folder.name}/{f.name[:-5]}" for f in folder.iterdir() if f.name.endswith(".yaml")
            ]
    return sorted(names)


def resolve(source: str | Path) -> Any:
    """The file of a config: a path, if there is a file there, else a shipped config by
    name (``origin/default``; ``.yaml`` may be added). Returns a path or a package-data
    file (both have ``read_text``).

    Raises:
        ConfigError: Neither a file nor a shipped config (the message lists the names).
    """
    if isinstance(source, Path) or Path(source).is_file():
        return Path(source)
    if not isinstance(source, str):
        return source  # a package-data file (importlib.resources.abc.Traversable)
    name = source[:-5] if source.endswith(".yaml") else source
    names = shipped_configs()
    if name in names:
        game, file = name.split("/")
        return resources.files(CONFIGS_PACKAGE).joinpath(game, f"{file}.yaml")
    raise ConfigError(
        f"config {source!r}: no such file and no shipped config of that name"
        f"{did_you_mean(name, names)} (shipped: {', '.join(names)})"
    )


def read(source: Any) -> dict[str, Any]:
    """The mapping in a YAML config file (a path, a name or a package-data file)."""
    path = resolve(source) if isinstance(source, str | Path) else source
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read config {source}: {exc}") from None
    try:
        data = yaml.safe_load(text) or {}
    except yaml.YAMLError as exc:
        raise ConfigError(f"{source}: not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: expected a mapping at the top level")
    return data


#: A number in exponent form without a dot (``1e-4``): YAML 1.1 reads it as a string.
_EXPONENT = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)[eE][-+]?\d+")


def parse_sets(items: Iterable[str]) -> dict[str, Any]:
    """``["ppo.learning_rate=1e-4", "opponents={random: 1}"]`` as dotted overrides, each
    value parsed as YAML (``1e-4`` as a float, though YAML reads it as a string).

    Raises:
        ConfigError: An item is not ``KEY=VALUE``, its value is not valid YAML, or a key
            is given twice.
    """
    out: dict[str, Any] = {}
    for item in items:
        key, eq, text = item.partition("=")
        key = key.strip()
        if not eq or not key or any(not part for part in key.split(".")):
            raise ConfigError(
                f"--set {item!r}: expected KEY=VALUE (dotted keys for nested "
                "sections, such as ppo.learning_rate=1e-4)"
            )
        if key in out:
            raise ConfigError(f"--set {key}: given twice")
        if _EXPONENT.fullmatch(text.strip()):
            out[key] = float(text)
            continue
        try:
            out[key] = yaml.safe_load(text) if text.strip() else ""
        except yaml.YAMLError as exc:
            raise ConfigError(f"--set {item!r}: the value is not valid YAML: {exc}") from None
    return out


def apply_overrides(data: dict[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` with dotted overrides set (``{"ppo.learning_rate": 1e-4}``; ``None`` values
    are skipped); ``data`` itself is not changed."""
    import copy

    data = copy.deepcopy(data)
    for dotted, value in overrides.items():
        if value is None:
            continue
        node = data
        parts = dotted.split(".")
        for i, part in enumerate(parts[:-1]):
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise ConfigError(
                    f"{dotted}: {'.'.join(parts[: i + 1])} is not a section (it is {node!r})"
                )
        node[parts[-1]] = value
    return data


def load(
    cls: type[T], source: str | Path | Any | None = None, overrides: Mapping[str, Any] | None = None
) -> T:
    """Read a YAML config (a path, a shipped name, a package-data file, or ``None`` for the
    defaults), apply dotted overrides and build ``cls``.

    Raises:
        ConfigError: The message starts with the file (or ``config``) and names the key.
    """
    data = read(source) if source is not None else {}
    try:
        return build(cls, apply_overrides(data, overrides or {}), "")
    except ConfigError as exc:
        raise ConfigError(f"{source or 'config'}: {exc}") from None


def save(config: Any, path: str | Path) -> None:
    """Write a config as YAML (the run folder's ``config.yaml``)."""
    Path(path).write_text(yaml.safe_dump(to_dict(config), sort_keys=False), encoding="utf-8")


# -- documentation --------------------------------------------------------------------------


def field_docs(cls: type) -> dict[str, tuple[str, str]]:
    """``{field: (annotation, documentation)}``: each field's string literal under it in the
    class's source (an empty documentation for a field without one)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    body = tree.body[0].body
    out: dict[str, tuple[str, str]] = {}
    for i, node in enumerate(body):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            doc = ""
            if i + 1 < len(body):
                nxt = body[i + 1]
                if (
                    isinstance(nxt, ast.Expr)
                    and isinstance(nxt.value, ast.Constant)
                    and isinstance(nxt.value.value, str)
                ):
                    doc = inspect.cleandoc(nxt.value.value)
            out[node.target.id] = (ast.unparse(node.annotation), doc)
    return out


def fields_of(cls: type, where: str = "") -> list[tuple[str, str, Any, str]]:
    """Every field of a config, nested sections flattened: ``(dotted key, type, default,
    documentation)``; a section comes before its fields, with default ``None``."""
    docs = field_docs(cls)
    rows = []
    for spec in dataclasses.fields(cls):
        key = f"{where}.{spec.name}" if where else spec.name
        kind, doc = docs.get(spec.name, (str(spec.type), ""))
        default = _default(spec)
        if dataclasses.is_dataclass(default):
            rows.append((key, "section", None, doc))
            rows += fields_of(type(default), key)
        else:
            item = spec.metadata.get("item")
            if item is not None:
                kind = f"list of {item.__name__} ({', '.join(f.name for f in dataclasses.fields(item))})"
            rows.append((key, kind, to_dict_value(default), doc))
    return rows


def to_dict_value(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def describe(cls: type, title: str) -> str:
    """Every field of the config ``cls``, for ``primeval train --help-config``: its dotted
    key (what ``--set`` takes), type, default and documentation."""
    lines = [title, ""]
    for key, kind, default, doc in fields_of(cls):
        if kind == "section":
            lines += ["", f"{key}:  (section) {doc}"]
            continue
        shown = yaml.safe_dump(default, default_flow_style=True).strip()
        shown = shown.removesuffix("\n...").removesuffix("...").strip()
        lines.append(f"  {key}: {kind} = {shown}")
        lines += [
            f"      {line}"
            for line in textwrap.wrap(" ".join(doc.split()), 86, break_on_hyphens=False)
        ]
    return "\n".join(lines)
