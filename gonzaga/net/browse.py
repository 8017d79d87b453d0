"""Asking a game server for its open games (issue 50): one connection, one ``list_games``, one
answer (``protocol.Games``), then the connection closes. ``tick`` drains it without blocking (the
frame loop calls it); a refusal, a lost connection or no answer in time ends it with words
(``error``). Pure Python (no pygame)."""
from __future__ import annotations

import time
from typing import Callable, Optional, Sequence

from pydantic import BaseModel

from ..words import i18n
from . import protocol as P
from . import signins
from .client import LOST, Connection, _address
from .remote import refusal_words

ANSWER_SECS = 15.0  # from asking to the answer: the connection's own opening gives up sooner (6 s)


class GameList:
    """One question to the server at ``url``: its open games (``games``) or why not (``error``)."""

    def __init__(self, url: str, *, clock: Callable[[], float] = time.monotonic,
                 connection: Optional[Connection] = None, answer_secs: Optional[float] = None,
                 ask: Optional[P.ListGames] = None, hello: Sequence[BaseModel] = ()):
        """``ask``: the filters (issue 47's lobby); ``hello``: sent first (``signins.hello``: signed
        in, the answer carries this player's rating and "fits my rating" can filter by it)."""
        self.url = url
        self.clock = clock
        self.conn = connection or Connection(url)
        self.deadline = clock() + (ANSWER_SECS if answer_secs is None else answer_secs)
        self.games: Optional[list[P.OpenGame]] = None
        self.rating: Optional[float] = None  # the asker's, when signed in
        self.error = ""
        for m in [*hello, ask or P.ListGames()]:
            self.conn.send(m)

    @property
    def done(self) -> bool:
        return self.games is not None or bool(self.error)

    def tick(self) -> bool:
        """Take the answer if it came; True once there is one (the games, or ``error``)."""
        if self.done:
            return True
        for msg in self.conn.poll():
            if signins.account_answer(msg, self.url):  # the hello's answer (a session ended: forgotten)
                continue
            if isinstance(msg, P.Games):
                self.games, self.rating = list(msg.games), msg.rating
            elif isinstance(msg, P.Error):
                self.error = refusal_words(msg)
            if self.done:
                break
        if not self.done and self.conn.status == LOST:
            self.error = self.conn.error or i18n.t("online.err_lost")
        if not self.done and self.clock() > self.deadline:  # it answered, but not this question
            self.error = i18n.t("servers.no_answer", address=_address(self.url))
        if self.done:
            self.close()
        return self.done

    def close(self) -> None:
        self.conn.close()
