"""The window on the desktop: the size and place it opens at, its icon, whether there is a screen
to open it on at all, and the plain message window shown when the game cannot start."""
from __future__ import annotations

import logging
import os
from typing import Optional

import pygame

from ..resources import asset_path
from ..words import i18n

log = logging.getLogger(__name__)

# What a desktop keeps for itself around a window: the title bar, a taskbar or dock, the frame.
# SDL 2's usable bounds are not exposed by pygame-ce, so the first window keeps this margin.
DESKTOP_MARGIN = (16, 90)


def desktop_usable(pg) -> Optional[tuple[int, int]]:
    """The room a window may take on the main desktop, or None when SDL shows nothing (the
    tests' dummy driver: its made-up 1024x768 desktop must not shrink their windows)."""
    try:
        if (pg.display.get_driver() or "").lower() in HEADLESS_DRIVERS:
            return None
        sizes = pg.display.get_desktop_sizes()
    except Exception:  # pygame.error: no display information
        return None
    if not sizes:
        return None
    w, h = sizes[0]
    return max(320, w - DESKTOP_MARGIN[0]), max(240, h - DESKTOP_MARGIN[1])


def fit_window(want, usable) -> tuple[int, int]:
    """The window size to open: ``want`` (the remembered size), each side no larger than the
    ``usable`` room of the desktop (None: as wanted)."""
    w, h = int(want[0]), int(want[1])
    if usable is None:
        return w, h
    return max(320, min(w, usable[0])), max(240, min(h, usable[1]))


def window_position(size, usable, remembered) -> tuple[int, int]:
    """Where the window opens: where it was left when it still lies wholly on the desktop, else
    centred in the usable room (never above or left of the desktop's corner)."""
    if remembered is not None and usable is not None:
        x, y = remembered
        if 0 <= x and 0 <= y and x + size[0] <= usable[0] + DESKTOP_MARGIN[0] and \
                y + size[1] <= usable[1] + DESKTOP_MARGIN[1]:
            return int(x), int(y)
    if usable is None:
        return 0, 0
    return max(0, (usable[0] + DESKTOP_MARGIN[0] - size[0]) // 2), max(0, (usable[1] - size[1]) // 2 + DESKTOP_MARGIN[1] // 3)


class NoDisplay(Exception):
    """No real window can be opened: ``main`` says so in one line and exits with status 2."""


HEADLESS_DRIVERS = ("offscreen", "dummy")  # SDL video drivers that open no window anybody sees


def check_display(pg) -> None:
    """NoDisplay when SDL has no display, or fell back to a driver that shows nothing although
    nobody asked for it (``SDL_VIDEODRIVER=dummy``, as the tests and tools set it, is allowed)."""
    try:
        if not pg.display.get_init():
            pg.display.init()
        driver = (pg.display.get_driver() or "").lower()
    except Exception as e:  # pygame.error: no video device at all
        raise NoDisplay(f"no video device could be opened ({e})") from None
    asked = [d.strip().lower() for d in os.environ.get("SDL_VIDEODRIVER", "").split(",") if d.strip()]
    if driver in HEADLESS_DRIVERS and driver not in asked:
        raise NoDisplay(f"no screen to open a window on (SDL found only its '{driver}' video driver; "
                        "is DISPLAY or WAYLAND_DISPLAY set?)")


def set_window_icon(pg) -> bool:
    """Give the window the game's icon (assets/icon/gonzaga.png); False when it cannot be read
    (the window keeps the system's default: never a reason to stop)."""
    try:
        icon = pg.image.load(str(asset_path("icon", "gonzaga.png")))
        pg.display.set_icon(icon)
    except (pg.error, OSError, FileNotFoundError) as e:
        log.warning("window icon not set: %s", e)
        return False
    return True


def show_fatal(message: str) -> None:
    """A plain window with a message (needs no game asset), for players who have no terminal."""
    try:
        pg = pygame
        pg.init()
        screen = pg.display.set_mode((760, 240))
        pg.display.set_caption("Gonzaga")
        font = pg.font.Font(None, 26)
        words, lines, line = message.split(), [], ""
        for w in words + ["", *i18n.t("cli.press_any_key").split()]:
            if not w:
                lines += [line, ""]
                line = ""
            elif font.size(line + " " + w)[0] > 700:
                lines.append(line)
                line = w
            else:
                line = f"{line} {w}".strip()
        lines.append(line)
        screen.fill((40, 30, 22))
        for i, text in enumerate(lines):
            screen.blit(font.render(text, True, (240, 228, 200)), (30, 30 + 26 * i))
        pg.display.flip()
        clock = pg.time.Clock()
        for _ in range(60 * 600):  # ten minutes at most
            if any(ev.type in (pg.QUIT, pg.KEYDOWN, pg.MOUSEBUTTONDOWN) for ev in pg.event.get()):
                break
            clock.tick(60)
        pg.quit()
    except Exception:  # no display at all: the message is already on stderr and in the log
        log.exception("could not show the start-up message")
