"""Who may do what on a game server, and how often (issue 39): the server's admission rules.

- **A host's own server** (the desktop game's "Host online game", ``ServerThread`` with a
  ``host_key``) creates games only for its host, whose client sends that key in ``create``;
  everyone else can only join with an invite code (or resume with a token).
- **A public server** (``gonzaga serve``) limits each address: connections at once, lobbies
  (games not started) at once, new games a minute, and wrong invite codes: at most
  ``wrong_codes_per_minute``, then a lockout that doubles each time (back-off). A wrong code,
  a started game's code and a full game's code get the same answer, so a guess learns nothing.
- **Chance and AI stay the server's.** A client-chosen seed is refused unless the server runs
  with ``--test-seeds`` (the project's own tests); the hidden setup is otherwise dealt from the
  operating system's randomness (``deal_rng``). Clients choose only the shipped AI levels,
  never a pinned budget (unless ``any_level``, again for tests).

The server asks :class:`Admission` before it acts and raises :class:`Refused` with its answer.
Everything here runs on the server's event loop, so it needs no locks.
"""
from __future__ import annotations

import random
import secrets
import time
from collections import deque
from dataclasses import dataclass
from typing import Callable, Optional, Union

from ..ai.roster import shipped_levels
from ..rules.refusals import Illegal
from ..words import i18n

Param = Union[int, float, str, None]  # a refusal's parameter, as the wire carries it

TRACKED_ADDRESSES = 100_000  # beyond this many addresses, the quietest are forgotten first


class Refused(Exception):
    """A message refused (sent to its sender only; nothing changed): an error ``code`` of the
    protocol (what a client does next), a words ``key`` with its ``params`` (what the player
    reads, put into words by the client in its own language) and, where a rule refused, its id.
    ``message`` is the English, for the log and for tools; nothing decides by it."""

    def __init__(self, code: str, key: str, rule: Optional[str] = None, **params: Param):
        self.code, self.key, self.rule, self.params = code, key, rule, params
        self.message = i18n.english(key, **params)
        super().__init__(self.message)

    @classmethod
    def of(cls, code: str, why: Illegal) -> "Refused":
        """The refusal of the table or the rules (an ``Illegal``) as the server sends it."""
        r = cls(code, f"refusal.{why.key}", why.rule, **why.args) if why.key else cls(code, "net.server_failed")
        r.message = why.message
        return r


@dataclass(frozen=True)
class Limits:
    """Per-address limits (an address as ``gate.address_of`` counts it), the server-wide cap on
    handshakes under way, and how long idle games stay in memory (None: no limit)."""

    conns_per_address: Optional[int] = 16  # a household behind one router: 4 players, a few each
    handshakes: Optional[int] = 256  # server-wide: connections in a TLS or WebSocket handshake at once
    # (checked at accept, gate.py); a handshake takes milliseconds, so only a flood holds many
    lobbies_per_address: Optional[int] = 3  # games created and not yet started, at once
    creates_per_minute: Optional[int] = 5
    wrong_codes_per_minute: int = 10  # then locked out
    lockout_seconds: float = 60.0  # the first lockout; each next one is twice as long...
    lockout_max_seconds: float = 3600.0  # ...up to this
    lobby_idle_seconds: Optional[float] = 1800.0  # a lobby nobody is connected to is deleted after this
    finished_idle_seconds: float = 300.0  # a finished game nobody watches leaves memory (kept on disk)

    @classmethod
    def host(cls) -> "Limits":
        """A host's own server: only its host creates, so no create or lobby limits, and the
        host's lobby waits for the host; wrong invite codes are limited as anywhere."""
        return cls(conns_per_address=32, lobbies_per_address=None, creates_per_minute=None,
                   lobby_idle_seconds=None)

    @classmethod
    def unlimited(cls) -> "Limits":
        """No per-address limit at all (a load measurement from one address, tests)."""
        return cls(conns_per_address=None, handshakes=None, lobbies_per_address=None, creates_per_minute=None,
                   wrong_codes_per_minute=10 ** 9)


class _Address:
    __slots__ = ("conns", "creates", "wrong", "locked_until", "lockouts", "lobbies", "seen")

    def __init__(self, now: float):
        self.conns = 0
        self.creates: deque[float] = deque()  # times of recent creates
        self.wrong: deque[float] = deque()  # times of recent wrong invite codes
        self.locked_until = 0.0
        self.lockouts = 0
        self.lobbies: set[str] = set()  # ids of games this address created
        self.seen = now


class Admission:
    """The admission rules of one server (see the module's docstring)."""

    def __init__(self, limits: Optional[Limits] = None, *, host_key: Optional[str] = None,
                 test_seeds: bool = False, any_level: bool = False,
                 clock: Callable[[], float] = time.monotonic):
        self.limits = limits or (Limits.host() if host_key else Limits())
        self.host_key = host_key
        self.test_seeds = test_seeds
        self.any_level = any_level
        self.clock = clock
        self._addresses: dict[str, _Address] = {}
        # a TLS reverse proxy in front (``serve --trusted-proxy``): its connections are not counted
        # at accept, and a player's address is the one it forwards (``gate.forwarded``)
        self.proxies: frozenset[str] = frozenset()

    def _at(self, address: str) -> _Address:
        now = self.clock()
        a = self._addresses.get(address)
        if a is None:
            if len(self._addresses) >= TRACKED_ADDRESSES:
                self.forget_quiet(now, force=True)
            a = self._addresses[address] = _Address(now)
        a.seen = now
        return a

    # ------------------------------------------------------------ connections

    def connect(self, address: str) -> bool:
        """A new TCP connection from ``address`` (asked at accept, before TLS: ``gate.py``): False
        when it already holds its limit. ``disconnect`` gives the slot back, once."""
        if address in self.proxies:
            return True  # every player behind the proxy: the proxy limits them (docs/server.md)
        a = self._at(address)
        cap = self.limits.conns_per_address
        if cap is not None and a.conns >= cap:
            return False
        a.conns += 1
        return True

    def disconnect(self, address: str) -> None:
        if address in self.proxies:
            return
        a = self._addresses.get(address)
        if a is not None and a.conns > 0:
            a.conns -= 1

    # ------------------------------------------------------------ creating games

    def check_create(self, address: str, host_key: Optional[str], seed: Optional[int],
                     is_lobby: Callable[[str], bool]) -> None:
        """Refused unless ``address`` may create a game now (the key, the seed, its limits)."""
        if self.host_key is not None and (host_key is None or not secrets.compare_digest(host_key, self.host_key)):
            raise Refused("not_allowed", "net.host_only")
        if seed is not None and not self.test_seeds:
            raise Refused("not_allowed", "net.no_seed")
        a = self._at(address)
        now = a.seen
        cap = self.limits.creates_per_minute
        if cap is not None:
            _drop_older(a.creates, now - 60.0)
            if len(a.creates) >= cap:
                wait = int(60.0 - (now - a.creates[0])) + 1
                raise Refused("limit", "net.creates_limit", cap=cap, seconds=wait)
        cap = self.limits.lobbies_per_address
        if cap is not None:
            a.lobbies = {g for g in a.lobbies if is_lobby(g)}
            if len(a.lobbies) >= cap:
                raise Refused("limit", "net.lobbies_limit", cap=cap)

    def created(self, address: str, game_id: str) -> None:
        a = self._at(address)
        a.creates.append(a.seen)
        a.lobbies.add(game_id)

    def check_level(self, bot: str, seat: int) -> None:
        """Refused unless a client may seat the AI level ``bot`` (a shipped level, no budget)."""
        if self.any_level:
            return
        shipped = shipped_levels()
        if bot not in shipped:
            name, _, budget = bot.partition("@")
            levels = ", ".join(shipped)
            if name in shipped and budget:
                raise Refused("not_allowed", "net.no_budget", seat=seat, bot=bot, levels=levels)
            raise Refused("not_allowed", "net.no_level", seat=seat, bot=bot, levels=levels)

    def deal_rng(self) -> random.Random:
        """The generator a game's setup is dealt from: the operating system's randomness (each
        draw fresh from ``os.urandom``, nothing to recover from what a seat sees)."""
        return random.SystemRandom()

    # ------------------------------------------------------------ invite codes

    def check_guess(self, address: str) -> None:
        """Refused while ``address`` is locked out for guessing invite codes."""
        a = self._at(address)
        if a.locked_until > a.seen:
            raise Refused("limit", "net.locked_out", seconds=int(a.locked_until - a.seen) + 1)

    def wrong_guess(self, address: str) -> None:
        """A join with a code that let nobody in: counted; too many in a minute lock it out."""
        a = self._at(address)
        now = a.seen
        _drop_older(a.wrong, now - 60.0)
        a.wrong.append(now)
        if len(a.wrong) >= self.limits.wrong_codes_per_minute:
            a.lockouts += 1
            a.locked_until = now + min(self.limits.lockout_max_seconds,
                                       self.limits.lockout_seconds * 2 ** (a.lockouts - 1))
            a.wrong.clear()

    # ------------------------------------------------------------ housekeeping

    def forget_quiet(self, now: Optional[float] = None, force: bool = False) -> int:
        """Forget addresses with nothing left to remember (memory stays bounded); the number
        forgotten. ``force``: also the oldest tenth, however busy."""
        now = self.clock() if now is None else now
        quiet = [k for k, a in self._addresses.items()
                 if a.conns == 0 and a.locked_until <= now and not a.lockouts and now - a.seen > 60.0
                 and not a.lobbies]
        for k in quiet:
            del self._addresses[k]
        for k, a in list(self._addresses.items()):  # a lockout is forgiven after an hour of quiet
            if a.conns == 0 and a.locked_until <= now and now - a.seen > 3600.0:
                del self._addresses[k]
        if force and len(self._addresses) >= TRACKED_ADDRESSES:
            oldest = sorted(self._addresses, key=lambda k: self._addresses[k].seen)
            for k in oldest[: max(1, len(oldest) // 10)]:
                del self._addresses[k]
        return len(quiet)

    def tracked(self) -> int:
        return len(self._addresses)


def _drop_older(times: deque[float], limit: float) -> None:
    while times and times[0] <= limit:
        times.popleft()
