"""What the online screens share (issue 14): the clipboard, the words of a lost connection, the
title's backdrop behind a form, the invite code as shown, a seat's crest."""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Callable, Optional

import pygame

from ..net import mygames
from ..render import pieces
from ..table import persistence
from ..words import i18n
from ..ui import widgets as W

if TYPE_CHECKING:  # only a type here: the title screen, which lists one's games, loads no client
    from ..net.remote import Table

log = logging.getLogger(__name__)

FRIEND = "friend"


# ---------------------------------------------------------------- the clipboard

def copy_text(app: Any, text: str, otherwise: Optional[Callable[[], None]] = None) -> bool:
    """Put ``text`` on the clipboard and say so; where there is no clipboard, ``otherwise()``
    (the lobby saves the invite to a file), else say what to do."""
    try:
        pygame.scrap.put_text(text)  # pygame-ce 2.2+: SDL's clipboard, no init needed
    except Exception as e:  # no clipboard (pygame.scrap missing, or no window system): not an error
        log.info("no clipboard: %r", e)
        if otherwise is not None:
            otherwise()
        else:
            app.toast(i18n.t("online.copy_off"), 5)
        return False
    app.toast(i18n.t("online.copied", text=text))
    return True


def paste_text() -> Optional[str]:
    """The clipboard's text (one line), or None where there is no clipboard."""
    try:
        text = pygame.scrap.get_text()
    except Exception as e:
        log.info("no clipboard: %r", e)
        return None
    return " ".join(str(text or "").split())


# ---------------------------------------------------------------- the player's name

def remembered_name(app: Any) -> str:
    """The name this player last hosted or joined with (the host and join screens offer it)."""
    name: str = app.settings.online_name
    return name


def remember_name(app: Any, name: str) -> None:
    """Keep ``name`` (already checked: ``parse_name``) for the next host or join screen."""
    if name != app.settings.online_name:
        app.settings.online_name = name
        persistence.save_settings(app.settings)


HOST_CLOSED = "online.err_host_closed"  # the connection's problem when the host stopped hosting


def lost_lines(t: Table) -> list[str]:
    """What a lost connection's banner says: that it was lost, why (when that says more), and
    that the game is safe; when the host stopped hosting, that the host closed the game."""
    problem = t.conn.problem
    if problem is not None and problem[0] == HOST_CLOSED and not t.is_host:  # (the host's own: its server stopped)
        return [i18n.t("online.host_closed"), i18n.t("online.host_closed_hint")]
    lines = [i18n.t("online.lost")]
    if t.error and t.error != i18n.t("online.err_lost"):
        lines.append(t.error)
    return lines + [i18n.t("online.lost_safe")]


def draw_backdrop(app: Any, surf: pygame.Surface) -> None:
    scenes = app.stack.scenes
    backdrop = getattr(scenes[0], "backdrop", None) if scenes else None  # the title's map, under every screen
    if backdrop is not None:
        backdrop.draw(surf)
    else:
        surf.fill(W.BG)


CODE_PX = 56


def code_text(code: str) -> str:
    """The invite code as shown: a thin space between letters (read out over a phone, copied by eye)."""
    return "\u2009".join(code)


def draw_crest(surf: pygame.Surface, colour: str, centre: tuple[int, int], size: int) -> None:
    c = pieces.crest(colour, size)
    surf.blit(c, c.get_rect(center=centre))


def shown_address(address: str) -> str:
    """An address as a line on screen shows it: without its scheme and its certificate fingerprint
    (52 letters nobody reads; the copied invite carries it)."""
    return address.partition("#")[0].removeprefix("wss://").removeprefix("ws://")


def game_line(g: "mygames.MyGame") -> str:
    """Who plays in a game this computer holds a seat of (its players, else this player)."""
    return ", ".join(g.players) or g.name or i18n.t("online.code_is", code=g.code)


def game_detail(g: "mygames.MyGame") -> str:
    """The invite code, this seat, and hosted here or joined where."""
    where = i18n.t("online.mine_hosted") if g.host else \
        i18n.t("online.mine_joined", address=shown_address(g.address))
    seat = i18n.t("online.mine_seat_colour", n=g.seat + 1, colour=i18n.colour_name(g.colour)) if g.colour else \
        str(g.seat + 1)
    return i18n.t("online.mine_detail", code=g.code, seat=seat, where=where)
