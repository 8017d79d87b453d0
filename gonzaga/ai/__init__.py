"""AI seats: bots that choose from a seat's view. ``make_bot(name, seed)`` builds one (``roster``)."""
from .base import Bot
from .roster import LEVELS, Level, UnknownBot, bot_names, find_level, is_known, make_bot, split_name

__all__ = ["Bot", "LEVELS", "Level", "UnknownBot", "bot_names", "find_level", "is_known", "make_bot", "split_name"]
