"""Where the game's files are: the source tree, or the PyInstaller bundle when frozen."""
from __future__ import annotations

import sys
from pathlib import Path


def base_directory() -> Path:
    """The folder that holds ``assets/``."""
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        return Path(frozen)
    return Path(__file__).resolve().parent.parent


def asset_path(*parts: str) -> Path:
    return base_directory().joinpath("assets", *parts)
