"""How the online tools (``netplay-check``) take their arguments and print their figures, without
reaching into ``gonzaga/cli.py``: the net package never imports the command line."""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import NoReturn


class UsageError(Exception):
    """Bad arguments: reported as one line, exit status 2."""


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one clear line, not argparse's usage block
        raise UsageError(f"{self.prog}: {message}")


def emit(obj: dict[str, object], as_json: bool) -> None:
    """The figures: one JSON document, or one ``key: value`` line each."""
    if as_json:
        print(json.dumps(obj, indent=1))
    else:
        for k, v in obj.items():
            print(f"{k}: {json.dumps(v)}")


def percentile(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    xs = sorted(xs)
    k = min(len(xs) - 1, max(0, int(round(q * (len(xs) - 1)))))
    return xs[k]


def silence_stdout() -> None:
    """Point stdout at the null device so that the flush at exit does not fail again (the reader
    of a pipe went away)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
