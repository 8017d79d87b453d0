"""The rules screen (title screen and in-game menu): the illustrated rules reference."""
from __future__ import annotations

from .rules_reference import RulesReferenceScene


class RulesScene(RulesReferenceScene):
    """The rules, always at hand: topics, search, a page per rule with its pictures."""
