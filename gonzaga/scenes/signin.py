"""Your account on a community server (issue 47): sign in, create an account, sign out, sign out
everywhere. Opened by name: ``app.stack.push("signin", address)`` (the server list, or any
screen that knows a server's address; without one, the server signed in to last).

The session token the server gives is kept per server in the user's data folder
(``net.signins.Keyring``: 0600, atomic, validated), never the password, which leaves the field
once the server has answered. Each button sends its messages on a connection of its own
(``AccountRequest``), polled each frame: the screen never waits. What the server refuses is
said in the player's language from its key (a wrong password, a banned name, too many attempts
with the wait); a server that cannot be reached, in the words of a lost connection.
"""
from __future__ import annotations

import logging
from typing import Any, Optional

import pygame
from pydantic import BaseModel, ValidationError

from ..net import protocol as P
from ..net.cleantext import clean_name
from ..net.typed import parse_address
from ..net.signins import AccountRequest, Keyring, ServerSignIn, device_label, server_key
from ..ui import widgets as W
from ..ui.widgets import Button, TextField
from ..words import i18n
from .base import Scene
from .form import Field, Fields, Question, centred_box, draw_panel, paste
from .online_common import draw_backdrop, shown_address

log = logging.getLogger(__name__)


class SignInScene(Scene):
    """Address, name and password (masked); the account's state on that server, and its buttons."""

    name = "signin"

    def __init__(self, app: Any, address: str = "", keyring: Optional[Keyring] = None) -> None:
        super().__init__(app)
        self.keyring = keyring or Keyring()
        address = address or (self.keyring.latest() or "")
        kept = self.keyring.get(address) if address else None
        self.form = Fields((Field("address", "signin.address", address, 440, 300),
                            Field("name", "signin.name", kept.name if kept else "", 300, 24),
                            Field("password", "signin.password", "", 300, 200, secret=True)))
        self.question = Question()
        self.doing = ""  # the request under way: "sign_in", "register", "sign_out", "sign_out_all"
        self.url = ""
        self.message = ""
        self.good = False  # the message is good news (not a refusal)
        problem = self.keyring.take_problem()
        if problem is not None:
            self.message = problem.report()
        self._memo: Optional[tuple[str, Optional[str], object]] = None  # (field value, url, its sign-in)
        self.box = pygame.Rect(0, 0, 0, 0)
        self.message_y = 0

    @property
    def fields(self) -> list[TextField]:
        """The address, name and password fields (laid out)."""
        return self.form.fields

    @property
    def request(self) -> Optional[AccountRequest]:
        """The question under way, if any."""
        return self.question.request

    # ------------------------------------------------------------ layout

    def layout(self, size: tuple[int, int]) -> None:
        self.widgets.clear()
        sc = W.sc
        self.box = centred_box(size, sc(980), sc(600))
        x0 = self.box.x + sc(40)
        y = self.form.layout(self.widgets, x0, self.box.x + sc(250), self.box.y + sc(130))
        self.message_y = y + sc(4)
        bottom = self.box.bottom - sc(70)
        self.widgets.add(Button(i18n.t("common.back"), self.back, (x0, bottom, sc(150), sc(48)), style="secondary"))
        self.sign_in_button = self.widgets.add(Button(i18n.t("signin.sign_in"), self.sign_in,
                                                      (self.box.right - sc(220), bottom, sc(180), sc(48)), px=21))
        self.create_button = self.widgets.add(Button(i18n.t("signin.create"), self.register,
                                                     (self.box.right - sc(460), bottom, sc(220), sc(48)),
                                                     style="secondary", px=18))
        row = bottom - sc(64)
        self.out_button = self.widgets.add(Button(i18n.t("signin.sign_out"), self.sign_out,
                                                  (x0, row, sc(200), sc(44)), style="secondary", px=17))
        self.out_all_button = self.widgets.add(Button(i18n.t("signin.sign_out_all"), self.sign_out_all,
                                                      (x0 + sc(220), row, sc(280), sc(44)), style="secondary", px=17))
        self.widgets.add(Button(i18n.t("signin.ratings"), self.ratings,  # t47lobby: the server's leaderboard
                                (self.box.right - sc(220), row, sc(180), sc(44)), style="secondary", px=17))
        self._enable()
        first_empty = next((k for k in ("address", "name") if not self.form.value(k)), None)
        if first_empty is not None:
            self.form.edit(first_empty)

    def _enable(self) -> None:
        idle = not self.question.busy
        kept = self._kept()
        self.sign_in_button.enabled = self.create_button.enabled = idle
        self.out_button.visible = self.out_all_button.visible = kept is not None and kept.session is not None
        self.out_button.enabled = self.out_all_button.enabled = idle

    def _read(self) -> tuple[Optional[str], object]:
        """The address typed as a url and this computer's sign-in there (the file is read again
        only when the address changes or after an answer: not every frame)."""
        value = self.form.value("address")
        if self._memo is None or self._memo[0] != value:
            url = parse_address(value)[0] if value.strip() else None
            self._memo = (value, url, self.keyring.get(url) if url else None)
        return self._memo[1], self._memo[2]

    def _kept(self) -> Optional[ServerSignIn]:
        kept = self._read()[1]
        return kept if isinstance(kept, ServerSignIn) else None

    # ------------------------------------------------------------ the buttons

    def _target(self, need_password: bool) -> Optional[tuple[str, str, str]]:
        """(url, name, password) from the fields, or None with the reason in the message."""
        url, why = parse_address(self.form.value("address"))
        if url is None:
            self._say(why if self.form.value("address").strip() else i18n.t("signin.need_address"))
            return None
        name = clean_name(self.form.value("name"))
        if need_password and not name:
            self._say(i18n.t("signin.need_name"))
            return None
        password = self.form.value("password")
        if need_password and not password:
            self._say(i18n.t("signin.need_password"))
            return None
        return url, name, password

    def sign_in(self) -> None:
        self._account("sign_in")

    def register(self) -> None:
        self._account("register")

    def _account(self, kind: str) -> None:
        if self.question.busy:
            return
        target = self._target(True)
        if target is None:
            return
        url, name, password = target
        kept = self.keyring.get(url)
        key = kept.device_key if kept else None
        try:
            msg = P.Register(name=name, password=password, device=device_label(), device_key=key) \
                if kind == "register" else \
                P.SignIn(name=name, password=password, device=device_label(), device_key=key)
        except ValidationError:  # a cleaned name of at most 24 characters always passes: only spaces left
            self._say(i18n.t("signin.need_name"))
            return
        self._send(kind, url, [msg], "account")

    def ratings(self) -> None:
        """The leaderboard of the server typed (its profiles from there)."""
        url, why = parse_address(self.form.value("address"))
        if url is None:
            self._say(why if self.form.value("address").strip() else i18n.t("signin.need_address"))
            return
        self.app.stack.push("ratings", url)

    def sign_out(self) -> None:
        self._leave("sign_out", P.SignOut())

    def sign_out_all(self) -> None:
        self._leave("sign_out_all", P.SignOutAll())

    def _leave(self, kind: str, msg: P.SignOut | P.SignOutAll) -> None:
        if self.question.busy:
            return
        target = self._target(False)
        who = self.keyring.whoami(target[0]) if target else None
        if target is None or who is None:
            return
        self._send(kind, target[0], [who, msg], "signed_out")

    def _send(self, kind: str, url: str, messages: list[BaseModel], want: str) -> None:
        self.url, self.doing = url, kind
        self.question.ask(url, messages, want)
        self.message, self.good = i18n.t("signin.connecting", address=shown_address(url)), True
        self._enable()

    # ------------------------------------------------------------ answers

    def update(self, dt: float) -> None:
        done = self.question.answer()
        if done is None:
            return
        answer, why = done
        kind, url = self.doing, self.url
        self.doing, self._memo = "", None
        if isinstance(answer, P.AccountInfo) and answer.session is not None:
            self.form.set("password", "")  # the password leaves the screen
            try:
                self.keyring.signed_in(url, answer.name, answer.session, answer.device_key)
            except (OSError, ValueError) as e:
                log.warning("the sign-in could not be kept: %s", e)
                self._say(i18n.t("signin.not_kept", why=getattr(e, "strerror", None) or str(e)))
            else:
                self.form.set("name", answer.name)
                self._say(i18n.t("signin.created" if kind == "register" else "signin.signed_in", name=answer.name,
                                 address=shown_address(url)), good=True)
        elif isinstance(answer, P.SignedOut) or (isinstance(answer, P.Error) and answer.code == "bad_session"
                                                 and kind in ("sign_out", "sign_out_all")):
            self._forget(url)  # ended here or there: this computer is signed out either way
            everywhere = isinstance(answer, P.SignedOut) and answer.everywhere
            self._say(i18n.t("signin.signed_out_all", n=answer.ended) if everywhere and isinstance(answer, P.SignedOut)
                      else i18n.t("signin.signed_out"), good=True)
        else:
            self.form.set("password", "")
            self._say(why)
        self._enable()

    def _forget(self, url: str) -> None:
        try:
            self.keyring.signed_out(url)
        except OSError as e:
            log.warning("the sign-out could not be kept: %s", e)

    def _say(self, text: str, good: bool = False) -> None:
        self.message, self.good = text, good

    def status_line(self) -> str:
        """The account's state on the address typed, as this computer knows it."""
        url, _ = self._read()
        kept = self._kept()
        if url is None:
            return ""
        if kept is not None and kept.session is not None:
            return i18n.t("signin.signed_in", name=kept.name, address=shown_address(server_key(url)))
        return i18n.t("signin.not_signed_in", address=shown_address(server_key(url)))

    # ------------------------------------------------------------ events and drawing

    def handle(self, ev: pygame.event.Event) -> bool:
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE and not self.widgets.editing():
            self.back()
            return True
        if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.form.field("password").editing:
            self.form.field("password").editing = False
            self.sign_in()
            return True
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_v and ev.mod & pygame.KMOD_CTRL and \
                paste(self.widgets, self.app):
            return True
        handled = super().handle(ev)
        self._enable()
        return handled

    def back(self) -> None:
        self.question.close()
        self.app.stack.pop(self)

    def visible_text(self) -> list[str]:
        return [self.status_line(), self.message]

    def draw(self, surf: pygame.Surface) -> None:
        draw_backdrop(self.app, surf)
        sc = W.sc
        draw_panel(surf, self.box, i18n.t("signin.heading"), i18n.t("signin.hint"))
        self.form.draw(surf)
        y = self.message_y
        status = self.status_line()
        if status:
            y = W.blit_text(surf, status, (self.box.x + sc(40), y), "sans_semibold", 17, W.TEXT,
                            wrap=self.box.w - sc(80)).bottom + sc(6)
        if self.message:
            W.blit_text(surf, self.message, (self.box.x + sc(40), y), "sans", 17, W.TEXT if self.good else W.BAD,
                        wrap=self.box.w - sc(80))
        self.widgets.draw(surf)
