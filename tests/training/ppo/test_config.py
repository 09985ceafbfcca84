"""The training config documents every field where it is declared (as CleanRL's ``Args``)."""

from __future__ import annotations

import ast
import dataclasses
import inspect

from primeval.training.ppo import config

CLASSES = [cls for _, cls in inspect.getmembers(config, inspect.isclass)
           if dataclasses.is_dataclass(cls) and cls.__module__ == config.__name__]


def documented_fields(cls: type) -> set[str]:
    """The fields of ``cls`` whose declaration is followed by a docstring."""
    body = ast.parse(inspect.getsource(cls)).body[0].body
    return {node.target.id for node, after in zip(body, body[1:], strict=False)
            if isinstance(node, ast.AnnAssign) and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant) and isinstance(after.value.value, str)}


def test_every_field_of_every_config_class_has_its_docstring():
    assert {c.__name__ for c in CLASSES} >= {"TrainConfig", "PPOConfig", "OpponentsConfig"}
    for cls in CLASSES:
        missing = {f.name for f in dataclasses.fields(cls)} - documented_fields(cls)
        assert not missing, f"{cls.__name__}: fields without a docstring: {sorted(missing)}"
