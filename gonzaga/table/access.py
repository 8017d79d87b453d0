"""The accessibility settings (issue 49), one part of ``persistence.Settings``: the screen
reader (``ui/speech``), the player's own keys (``ui/keys.py``) and the high-contrast interface
(``ui/widgets.py``'s palettes)."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Access(BaseModel):
    """Unknown fields are ignored; a bad value falls back to the defaults (``load_settings``)."""

    model_config = ConfigDict(extra="ignore")
    screen_reader: Literal["auto", "on", "off"] = "auto"  # auto: speak when the system's screen reader runs
    keys: dict[str, str] = Field(default_factory=dict, max_length=64)  # action -> pygame key name
    high_contrast: bool = False
