"""This computer's sign-ins to community servers (issue 47), and one request to a server's accounts.

``server-sign-ins.json`` in the user data folder keeps, per server address (without the
certificate's fingerprint): the account's name, the session token while signed in (never the
password), and this computer's device key on that server (kept after signing out: a guesser
never slows down a sign-in that carries it, ``accounts.py``). ``Keyring`` reads it fresh for
every change, validates it with pydantic, and writes it atomically, readable by the user only
(0600: a session is as good as the password until it ends). A damaged file is moved aside and
reported once (``Keyring.problem``), never a crash.

``AccountRequest`` sends a few account messages on a connection of its own and waits, off the
frame loop, for the answer (``account``, ``signed_out``) or the refusal; the sign-in screen
polls it each frame. Pure Python (no pygame).
"""
from __future__ import annotations

import datetime as _dt
import logging
import os
import platform
import time
from pathlib import Path
from typing import Callable, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..table import persistence
from ..table import save_schema as S
from ..words import i18n
from . import protocol as P
from .cleantext import clean
from .client import CONNECTED, CONNECTING, Connection

log = logging.getLogger(__name__)

FILE_NAME = "server-sign-ins.json"
FORMAT = "gonzaga-sign-ins"
MAX_BYTES = 64 * 1024
MAX_SERVERS = 32
MODE = 0o600
ANSWER_TIMEOUT = 20.0  # seconds for a server's answer (a sign-in hashes for a fraction of a second)
_KEY = r"^[A-Za-z0-9_-]{40,64}$"


class ServerSignIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field("", max_length=24)
    session: Optional[str] = Field(None, pattern=_KEY)  # None: signed out
    device_key: Optional[str] = Field(None, pattern=_KEY)
    date: str = Field("", max_length=40)


class SignInsFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: str = Field(default=FORMAT, pattern=f"^{FORMAT}$")
    version: int = Field(default=1, ge=1, le=1)
    servers: dict[str, ServerSignIn] = Field(default_factory=dict, max_length=MAX_SERVERS)


def server_key(url: str) -> str:
    """A server's address as the file keys it: without the fingerprint after ``#``, at most 300."""
    return url.partition("#")[0].strip()[:300]


def device_label() -> str:
    """What the server's list of sessions calls this computer."""
    return clean(platform.node() or "", 40) or "Gonzaga"


class Keyring:
    """The file of this computer's sign-ins (its path fixed when made)."""

    def __init__(self, path: Optional[Union[str, Path]] = None):
        self.path = Path(path) if path is not None else persistence.data_dir() / FILE_NAME
        self.problem: Optional[persistence.SaveError] = None  # a damaged file, moved aside

    def read(self) -> SignInsFile:
        if not os.path.lexists(self.path):
            return SignInsFile()
        try:
            return SignInsFile.model_validate(S.read_json_file(self.path, MAX_BYTES))
        except S.FileProblem as e:
            message = e.message()
        except ValidationError:
            message = i18n.t("signin.damaged")
        except Exception:  # never a crash: the log keeps the cause
            log.exception("reading %s", self.path)
            message = i18n.t("save.unexpected")
        log.warning("damaged %s: %s", self.path, message)
        problem = persistence.SaveError(message, self.path)
        problem.moved_to = persistence.move_aside(self.path)
        problem.move_failed = problem.moved_to is None
        self.problem = problem
        return SignInsFile()

    def take_problem(self) -> Optional[persistence.SaveError]:
        p, self.problem = self.problem, None
        return p

    def get(self, url: str) -> Optional[ServerSignIn]:
        return self.read().servers.get(server_key(url))

    def whoami(self, url: str) -> Optional[P.WhoAmI]:
        """The message that signs a new connection to ``url`` in with the kept session, or None
        when signed out there."""
        kept = self.get(url)
        return P.WhoAmI(session=kept.session) if kept is not None and kept.session is not None else None

    def latest(self) -> Optional[str]:
        """The address of the server signed in to (or out of) last, if any."""
        servers = self.read().servers
        return max(servers, key=lambda k: servers[k].date) if servers else None

    def write(self, f: SignInsFile) -> None:
        """Atomically, readable by the user only; OSError when it cannot be written."""
        persistence.atomic_write_bytes(self.path, f.model_dump_json(indent=1).encode("utf-8"), mode=MODE)

    def signed_in(self, url: str, name: str, session: str, device_key: Optional[str]) -> None:
        """Keep the session (OSError when the file cannot be written; ValueError for a bad token)."""
        self._put(url, ServerSignIn(name=name, session=session, device_key=device_key,
                                    date=_dt.datetime.now().isoformat(timespec="seconds")))

    def signed_out(self, url: str) -> None:
        """Forget the session, keep the name and the device key."""
        old = self.get(url)
        if old is not None and old.session is not None:
            self._put(url, old.model_copy(update={"session": None}))

    def _put(self, url: str, entry: ServerSignIn) -> None:
        f = self.read()
        servers = {k: v for k, v in f.servers.items() if k != server_key(url)}
        servers[server_key(url)] = entry
        if len(servers) > MAX_SERVERS:  # the oldest go first
            servers = dict(sorted(servers.items(), key=lambda kv: kv[1].date)[-MAX_SERVERS:])
        self.write(SignInsFile(servers=servers))


def hello(url: str, keyring: Optional[Keyring] = None) -> list[BaseModel]:
    """What a game's connection to ``url`` sends before its create, join or resume: ``whoami``
    with the session kept for that server, so that the seat it takes is the account's (the
    server binds it); nothing when not signed in there."""
    try:
        kept = (keyring or Keyring()).get(url)
    except Exception:  # never keeps a game from opening: the log has it
        log.exception("reading the sign-ins")
        return []
    return [P.WhoAmI(session=kept.session)] if kept is not None and kept.session else []


def account_answer(msg: BaseModel, url: str, keyring: Optional[Keyring] = None) -> bool:
    """Whether ``msg`` answers that ``whoami`` (the game's table then passes over it); a session
    the server no longer knows is forgotten here, and the game goes on unsigned."""
    if isinstance(msg, (P.AccountInfo, P.SignedOut)):
        return True
    if isinstance(msg, P.Error) and msg.key in ("accounts.bad_session", "accounts.none"):
        if msg.key == "accounts.bad_session":
            try:
                (keyring or Keyring()).signed_out(url)
            except OSError as e:
                log.warning("the sign-out could not be kept: %s", e)
        return True
    return False


class AccountRequest:
    """Account messages sent in order on a new connection to ``url``; ``poll`` says when the answer
    (of type ``want``) or a refusal has come. ``clock``: for the answer's deadline."""

    def __init__(self, url: str, messages: list[BaseModel], want: str,
                 clock: Callable[[], float] = time.monotonic):
        self.want = want
        self.clock = clock
        self.deadline = clock() + ANSWER_TIMEOUT
        self.conn = Connection(url)
        self.answers: list[BaseModel] = []
        for m in messages:
            self.conn.send(m)

    def poll(self) -> Optional[tuple[Optional[BaseModel], str]]:
        """None while waiting; then (the answer, ""), (the server's ``error``, its words) or (None,
        why the server could not be reached), the connection closed."""
        for m in self.conn.poll():
            if isinstance(m, P.Error):
                self.close()
                return m, i18n.t(m.key, **m.params) if m.key in i18n.EN else m.message
            if getattr(m, "type", "") == self.want:
                self.close()
                return m, ""
            self.answers.append(m)
        if self.conn.status not in (CONNECTING, CONNECTED):
            why = self.conn.error or i18n.t("online.err_lost")
            self.close()
            return None, why
        if self.clock() > self.deadline:
            self.close()
            return None, i18n.t("online.err_lost")
        return None

    def close(self) -> None:
        self.conn.close()
