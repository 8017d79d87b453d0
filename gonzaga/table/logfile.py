"""The game's log file (issue 28's quiet logging, kept here out of persistence.py): a rotating
file in the user's log folder that never prints to the terminal, and whether it could be opened."""
from __future__ import annotations

import logging
import logging.handlers
from pathlib import Path


class _QuietFileHandler(logging.handlers.RotatingFileHandler):
    """A rotating log file whose failures (disk full, folder gone) are counted, never printed."""

    failures = 0

    def handleError(self, record: logging.LogRecord) -> None:  # logging's default prints a traceback to stderr
        self.failures += 1

    def flush(self) -> None:
        try:
            super().flush()
        except (OSError, ValueError):
            self.failures += 1

    def close(self) -> None:
        try:
            super().close()
        except (OSError, ValueError):
            self.failures += 1


def setup_logging(path: Path, level: int = logging.INFO) -> Path:
    """Log to a rotating file at ``path``; returns it.

    Nothing is ever printed to the terminal by logging: a log file that cannot be opened is
    replaced by a handler that drops the records (so Python's last-resort handler stays
    silent), and a write that fails later is dropped too.
    """
    logging.raiseExceptions = False  # no handler anywhere prints "--- Logging error ---"
    root = logging.getLogger()
    for h in list(root.handlers):
        if getattr(h, "_gonzaga", False):
            root.removeHandler(h)
            h.close()
    global _log_failed
    handler: logging.Handler
    try:
        handler = _QuietFileHandler(path, maxBytes=1_000_000, backupCount=2, encoding="utf-8",
                                    errors="backslashreplace")  # a non-UTF-8 file name: escaped, kept
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        _log_failed = False
    except (OSError, ValueError):
        handler = logging.NullHandler()
        _log_failed = True
    handler._gonzaga = True  # type: ignore[union-attr]  # our mark, read back with getattr above
    root.addHandler(handler)
    root.setLevel(level)
    return path


_log_failed = False


def log_available() -> bool:
    """False when ``setup_logging`` could not open the log file (a dialog must not point at it)."""
    return not _log_failed
