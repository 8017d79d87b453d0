"""What the command lines share: the names of the tool commands, the one-line usage error and
its parser, JSON-or-lines output, a percentile, and quiet handling of a closed stdout.

``gonzaga/app.py`` (the game's options) and ``gonzaga/cli.py`` (the tools) both import from
here, so that the game never imports the tools (the tools may import the game, never the other
way round).
"""
from __future__ import annotations

import argparse
import json
import os
import sys

TOOL_COMMANDS = ("simulate", "replay", "legal", "bench", "render-map", "serve", "netplay-check")


class UsageError(Exception):
    """Bad arguments or input files: reported as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one clear line, not argparse's usage block
        raise UsageError(f"{self.prog}: {message}")


def _silence_stdout() -> None:
    """Point stdout at the null device so that the flush at exit does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def _emit(obj: dict, as_json: bool) -> None:
    if as_json:
        print(json.dumps(obj, indent=1))
    else:
        for k, v in obj.items():
            print(f"{k}: {json.dumps(v)}")


def _percentile(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    xs = sorted(xs)
    k = min(len(xs) - 1, max(0, int(round(q * (len(xs) - 1)))))
    return xs[k]
