"""What the command lines share: the names of the tool commands, the one-line usage error and
its parser, JSON-or-lines output, a percentile, and quiet handling of a closed stdout (all
from ``net/report.py``, which the online tools use too).

``gonzaga/app.py`` (the game's options) and ``gonzaga/cli.py`` (the tools) both import from
here, so that the game never imports the tools (the tools may import the game, never the other
way round).
"""
from __future__ import annotations

from .net.report import Parser, UsageError, emit, percentile, silence_stdout  # noqa: F401 (for cli)

TOOL_COMMANDS = ("simulate", "replay", "legal", "review", "bench", "render-map", "serve", "netplay-check",
                 "accounts")

