"""The command line explains itself: the top description names every command, and the
options a first-time user reaches for first have help text."""

from __future__ import annotations

import argparse

from primeval.training import cli


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


def test_the_top_description_names_every_command():
    parser = cli.build_parser()
    for name in _subparsers(parser):
        assert f"{name} (" in parser.description, name


def test_the_common_options_have_help_text():
    commands = _subparsers(cli.build_parser())
    wanted = {"train": ("--total-steps", "--seed", "--config", "--set"),
              "evaluate": ("--players", "--games", "--seed", "--agents"),
              "league": ("--players", "--games", "--seed"),
              "fuzz": ("--players", "--games")}
    for command, flags in wanted.items():
        helps = {flag: a.help for a in commands[command]._actions for flag in a.option_strings}
        for flag in flags:
            assert helps.get(flag), f"{command} {flag} has no help"
