"""My games across servers (issue 47, t47turn): every server this computer is signed in to
(``signins.Keyring``) is asked for the account's games (``whoami`` with the kept session, then
``my_games``), each on a connection of its own, off the frame loop (``signins.AccountRequest``).

- ``MyGamesPoll``: one round of asks; ``poll`` each frame until ``done``. Each server's answer
  is a ``ServerGames``: its games (your turn first, as the server orders them) or why it could
  not be asked (a server that does not answer, a session that ended). The address asked is the
  one saved in "Play on a server" when it carries the certificate's fingerprint.
- ``TurnWatch``: while the game runs, asks again every ``EVERY`` seconds and calls ``notify``
  for each game that has become your turn since the last answer (not the game being played);
  ``enabled`` False (the setting) asks nothing. Clock and notifier are given: tests pass theirs.

Pure Python (no pygame).
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

from ..words import i18n
from . import protocol as P
from .server_list import ServerList
from .signins import AccountRequest, Keyring, server_key

log = logging.getLogger(__name__)

EVERY = 60.0  # seconds between two rounds of asks while the game runs


@dataclass
class ServerGames:
    """One server's answer: the account's name there and its games, or why there is none."""

    url: str
    name: str = ""
    games: list[P.MyGameRow] = field(default_factory=list)
    problem: str = ""  # in words: the server could not be asked

    @property
    def your_turn(self) -> list[P.MyGameRow]:
        return [g for g in self.games if g.your_turn]


def signed_in_servers(keyring: Optional[Keyring] = None, servers: Optional[ServerList] = None) -> list[str]:
    """The addresses of the servers this computer is signed in to (with the fingerprint kept in
    the saved servers when there is one)."""
    try:
        kept = (keyring or Keyring()).read().servers
        saved = (servers or ServerList()).addresses()
    except Exception:  # never a crash: the log has it
        log.exception("reading the sign-ins")
        return []
    full = {server_key(a): a for a in saved}
    return [full.get(k, k) for k, s in kept.items() if s.session]


class MyGamesPoll:
    """One round of My games asks to every server signed in to (``urls``: those servers)."""

    def __init__(self, urls: Optional[list[str]] = None, keyring: Optional[Keyring] = None,
                 clock: Callable[[], float] = time.monotonic):
        keyring = keyring or Keyring()
        self.results: dict[str, ServerGames] = {}
        self.asking: dict[str, AccountRequest] = {}
        for url in (signed_in_servers(keyring) if urls is None else urls):
            who = keyring.whoami(url)
            if who is None:
                continue
            try:
                self.asking[url] = AccountRequest(url, [who, P.MyGamesAsk()], "my_games_list", clock=clock)
            except Exception as e:  # a bad address: said, never raised
                log.warning("My games could not ask %s: %r", url, e)
                self.results[url] = ServerGames(url, problem=str(e) or type(e).__name__)

    @property
    def done(self) -> bool:
        return not self.asking

    def poll(self) -> bool:
        """Take the answers that came; True once every server has answered or failed."""
        for url, req in list(self.asking.items()):
            got = req.poll()
            if got is None:
                continue
            del self.asking[url]
            msg, why = got
            if isinstance(msg, P.MyGamesList):
                self.results[url] = ServerGames(url, msg.name, list(msg.games))
            else:
                self.results[url] = ServerGames(url, problem=why or i18n.t("online.err_lost"))
        return self.done

    def close(self) -> None:
        for req in self.asking.values():
            req.close()
        self.asking.clear()

    def your_turn(self) -> int:
        """Games where it is your turn, over every server that answered."""
        return sum(len(r.your_turn) for r in self.results.values())


class TurnWatch:
    """Asks My games every ``EVERY`` seconds while the game runs and tells ``notify(url, row)``
    of each game newly your turn (the first round only learns where things stand)."""

    def __init__(self, notify: Callable[[str, P.MyGameRow], None], clock: Callable[[], float] = time.monotonic,
                 start: Callable[[], MyGamesPoll] = MyGamesPoll):
        self.notify = notify
        self.clock = clock
        self.start = start
        self.enabled = True
        self.playing: Optional[str] = None  # the game on the screen: never notified
        self.poll_now: Optional[MyGamesPoll] = None
        self.next = clock()  # the first round at once
        self.known: Optional[set[tuple[str, str, int]]] = None  # (server, game, seat) your turn at the last answer
        self.count = 0  # your turn now, over every server (the title's figure)
        self.servers = 0  # servers asked in the last round (none: no My games button)

    def tick(self) -> None:
        """Each frame: start a round when due, take its answers, notify what is new."""
        if not self.enabled:
            if self.poll_now is not None:
                self.poll_now.close()
                self.poll_now = None
            return
        if self.poll_now is None:
            if self.clock() < self.next:
                return
            self.next = self.clock() + EVERY
            self.poll_now = self.start()
        if not self.poll_now.poll():
            return
        results, self.poll_now = self.poll_now.results, None
        now = {(url, g.game, g.seat): g for url, r in results.items() for g in r.your_turn}
        self.count = len(now)
        self.servers = len(results)
        if self.known is not None:
            for (url, game, seat), row in now.items():
                if (url, game, seat) not in self.known and game != self.playing:
                    try:
                        self.notify(url, row)
                    except Exception:  # a notifier that fails never stops the game
                        log.exception("the notification failed")
        self.known = set(now) | {k for k in (self.known or set()) if k[0] not in results or results[k[0]].problem}
