"""``gonzaga`` and ``python -m gonzaga``: the game, or a tool command (simulate, replay, ...)."""
from __future__ import annotations

import multiprocessing
import os
import sys

from .cli_common import TOOL_COMMANDS


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in TOOL_COMMANDS:
        from .cli import run  # the tools (a server, the checks, the simulator): the game never loads them
        return run(argv)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # before pygame loads: no banner on stdout
    from .app import main as app_main  # the desktop game loads pygame and every screen; the tools do not
    return app_main(argv)


if __name__ == "__main__":
    multiprocessing.freeze_support()  # AI worker processes in the frozen build
    sys.exit(main())
