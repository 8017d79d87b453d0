"""AI seats: bots that choose from a seat's view. ``make_bot(name, seed)`` builds one."""
from .base import Bot, bot_names, make_bot, register

__all__ = ["Bot", "bot_names", "make_bot", "register"]
