"""``gonzaga`` and ``python -m gonzaga``: the game, or a tool command (simulate, replay, ...)."""
from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    from .cli import TOOL_COMMANDS, run
    if argv and argv[0] in TOOL_COMMANDS:
        return run(argv)
    from .app import main as app_main  # the desktop game (pygame is imported only here)
    return app_main(argv)


if __name__ == "__main__":
    import multiprocessing
    multiprocessing.freeze_support()  # AI worker processes in the frozen build
    sys.exit(main())
