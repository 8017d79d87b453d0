"""The server's side of accounts (issue 47): the handlers of ``register``, ``sign_in``, ``whoami``,
``sign_out`` and ``sign_out_all``, which connection is signed in to which account, and the
guard that keeps one account's seats from another's connections. ``GameServer`` holds one
:class:`AccountDesk` (a part, not a mixin) and asks it, for every message, which handler runs it
(``handler``): the desk's own for these messages; for a message with a seat's token, the
server's once ``guard`` lets it; after a ``create``, ``join``, ``resume`` or ``rematch``, the
seats now held by connections signed in are bound to their accounts (``bind_held``).

- **Hashing off the event loop.** A password hash takes about 50 ms and 16 MiB (``accounts.py``):
  it runs in ``MAX_HASHING`` threads of its own (``hashlib.scrypt`` lets go of the GIL), at most
  ``MAX_WAITING`` waiting server-wide and one per connection; beyond that: ``limit``. Every
  limit on guessing is checked before a hash is started.
- **A seat belongs to the account** of the connection that took it while signed in (its token's
  SHA-256 is bound to the account in the store, for good: it survives a hand-over to the AI, a
  resignation, a restart). A message with that seat's token is refused unless its connection is
  signed in to that account (``bad_session`` when signed out, ``not_your_seat`` for another
  account): a token that leaked acts for nobody. Seats taken without an account work as before.
- **Revocation.** A connection's session is looked up again at most every ``RECHECK`` seconds
  (another process, or the operator's ``gonzaga accounts ban``, may have ended it); ``sign out
  everywhere`` ends at once every connection of this process signed in to the account.
"""
from __future__ import annotations

import asyncio
import logging
import math
import time
import weakref
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Callable, Optional

from pydantic import BaseModel

from . import accounts as A
from . import protocol as P
from .account_store import Account, AccountStore, NameTaken
from .accounts import provisional
from .admission import Refused
from .cleantext import clean
from .rooms import Conn, GameRoom, token_hash

try:  # openskill (pyproject's dependencies): without it the server runs, its games unrated
    from . import ratings as _ratings
    R: Optional[ModuleType] = _ratings
except ImportError:  # pragma: no cover - an install from a lock made before openskill was added
    R = None

log = logging.getLogger(__name__)

_TAKES_SEATS = ("create", "join", "resume", "rematch", "open_game", "quick_match")  # after these, a connection may hold a new seat

MAX_HASHING = 2  # password hashes computed at once (threads): 2 x 16 MiB
MAX_WAITING = 16  # sign-ins and registrations waiting for a hash, server-wide
RECHECK = 30.0  # seconds between two look-ups of a connection's session
PURGE_EVERY = 3600.0  # sessions unused for SESSION_DAYS are deleted at a sign-in, at most this often
SEAT_CACHE = 200_000  # seat tokens whose account is remembered in memory
_nobody: list[str] = []  # the hash compared with for a name without an account (made once, when first needed),
# so that a sign-in takes as long either way


@dataclass
class _Signed:
    account: int
    name: str
    digest: str  # the session's
    checked: float  # monotonic time of the last look-up


class AccountDesk:
    """Accounts for one ``GameServer`` (``store`` None: this server has none, and says so)."""

    def __init__(self, store: Optional[AccountStore], *, clock: Callable[[], float] = time.time,
                 monotonic: Callable[[], float] = time.monotonic):
        self.store = store
        self.clock = clock
        self.monotonic = monotonic
        self.attempts = A.Attempts(monotonic)
        self.signed: weakref.WeakKeyDictionary[Conn, _Signed] = weakref.WeakKeyDictionary()
        self.hashing: set[Conn] = set()  # connections with a hash under way
        self.tasks: set[asyncio.Task[None]] = set()
        self.seats: dict[str, Optional[int]] = {}  # seat token digest -> its account (None: none)
        self.pool: Optional[ThreadPoolExecutor] = None
        self.hashes = 0  # computed since the start (figures, tests)
        self.purged = -PURGE_EVERY  # monotonic time of the last purge of sessions gone stale
        self.watched: weakref.WeakSet[GameRoom] = weakref.WeakSet()  # rooms whose end is rated here
        self.rated: set[str] = set()  # games whose end was looked at (rated or not)
        self.on_bound: Optional[Callable[[GameRoom, int, int], None]] = None  # a seat bound (t47turn: My games)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
        for t in list(self.tasks):
            t.cancel()

    # ------------------------------------------------------------ what the server asks

    def on(self, conn: Conn, msg: BaseModel) -> None:
        """One of ``P.ACCOUNT_CLIENT_TYPES``: answered now or after its hash; Refused otherwise."""
        if self.store is None:
            raise Refused("not_allowed", "accounts.none")
        if isinstance(msg, P.Register):
            self._register(conn, msg)
        elif isinstance(msg, P.SignIn):
            self._sign_in(conn, msg)
        elif isinstance(msg, P.WhoAmI):
            self._whoami(conn, msg)
        elif isinstance(msg, P.SignOut):
            self._sign_out(conn)
        elif isinstance(msg, P.SignOutAll):
            self._sign_out_all(conn)
        elif isinstance(msg, P.LeaderboardAsk):
            conn.send(P.Standings(rows=[P.Standing(name=s.name, rating=round(s.shown, 2), games=s.games,
                                                   provisional=provisional(s.games))
                                        for s in self.store.leaderboard(msg.limit)]))
        elif isinstance(msg, P.ProfileAsk):
            self._profile(conn, msg.name)
        else:  # pragma: no cover - the protocol's table and this one are kept together
            raise Refused("bad_message", "net.bad_message")

    def handler(self, conn: Conn, msg: BaseModel, own: Optional[Callable[[Conn, Any], None]]
                ) -> Callable[[Conn, Any], None]:
        """What runs ``msg`` (``own``: the server's handler of its type): Refused when it carries
        the token of an account's seat that ``conn`` may not act for."""
        kind = getattr(msg, "type", "")
        if kind in P.ACCOUNT_KINDS:
            return self.on
        token = getattr(msg, "token", None)
        if token is not None:
            self.guard(conn, token)
        if own is None:  # pragma: no cover - every message of the protocol has its handler
            raise Refused("bad_message", "net.bad_message")
        if self.store is None or kind not in _TAKES_SEATS:
            return own

        def then_bind(c: Conn, m: Any) -> None:
            own(c, m)
            self.bind_held(c)
        return then_bind

    def guard(self, conn: Conn, token: str) -> None:
        """Refused when ``token`` is a seat of an account that ``conn`` is not signed in to."""
        owner = self._owner(token_hash(token))
        if owner is None:
            return
        me = self.current(conn)
        if me is None:
            raise Refused("bad_session", "accounts.seat_sign_in")
        if me.account != owner:
            raise Refused("not_your_seat", "accounts.seat_other")

    def bind_held(self, conn: Conn) -> None:
        """Every seat of ``conn``'s game held by a connection signed in becomes its account's (a
        rematch gives each player of the game a new seat at once)."""
        room = conn.room
        if self.store is None or room is None:
            return
        for i, c in room.conns():
            me = self.current(c)
            d = room.seats[i].token_hash
            if me is not None and d and self._owner(d) is None:
                self.store.bind_seat(d, me.account)
                self.seats[d] = me.account
                if self.on_bound is not None:  # My games' index (turns.py)
                    self.on_bound(room, i, me.account)
        self.watch(room)

    def watch(self, room: GameRoom) -> None:
        """``room``'s end is rated when it comes (a game already over: now), whoever is connected
        then: a game read again from the store may end with nobody there (its seats the AI's)."""
        if self.store is not None and room not in self.watched:
            self.watched.add(room)
            room.table.observe(lambda v, a, t: self._game_over(room), seat=None)
            self._game_over(room)

    # ------------------------------------------------------------ ratings

    def _game_over(self, room: GameRoom) -> None:
        """Rate ``room``'s game once it is over, when every seat is a different account's."""
        if self.store is None or R is None or not room.table.is_over or room.id in self.rated:
            return
        self.rated.add(room.id)
        accounts = R.rated_accounts([self._owner(s.token_hash) if s.token_hash else None for s in room.seats])
        if accounts is None:
            return
        before = []
        for a in accounts:
            s = self.store.standing(a)
            before.append(R.Rating(s.mu, s.sigma, s.games) if s else R.new_rating())
        ranks = R.final_ranks(room.state, [s.resigned for s in room.seats])
        after = R.rate(before, ranks)
        if self.store.record_game(room.id, [(a, r.mu, r.sigma, r.games, r.shown, p)
                                            for a, r, p in zip(accounts, after, ranks)], self.clock()):
            log.info("game %s rated: places %s", room.id, ranks)

    def _profile(self, conn: Conn, name: str) -> None:
        assert self.store is not None
        acc = self.store.by_name(name)
        if acc is None or acc.banned:
            raise Refused("no_account", "accounts.no_account", name=name)
        s = self.store.standing(acc.id)
        history = [P.RatingPoint(game=g.game, rating=round(g.shown, 2), place=g.place, at=g.at)
                   for g in self.store.rated_games(acc.id, 100)]
        if s is None:
            conn.send(P.ProfileInfo(name=acc.name))
            return
        conn.send(P.ProfileInfo(name=acc.name, rating=round(s.shown, 2), mu=round(s.mu, 3), sigma=round(s.sigma, 3),
                                games=s.games, provisional=provisional(s.games), history=history))

    def seat_name(self, conn: Conn, name: str) -> str:
        """The name a seat taken by ``conn`` shows: its account's when signed in (nobody else's)."""
        me = self.current(conn)
        return me.name if me is not None else name

    def current(self, conn: Conn) -> Optional[_Signed]:
        """The account ``conn`` is signed in to, its session looked up again if not for a while."""
        me = self.signed.get(conn)
        if me is None or self.store is None:
            return None
        now = self.monotonic()
        if now - me.checked < RECHECK:
            return me
        s = self.store.session(me.digest)
        acc = self.store.by_id(me.account) if s is not None else None
        if s is None or acc is None or acc.banned or self._expired(s.used):
            del self.signed[conn]
            return None
        me.checked = now
        self._touch(s.digest, s.used)
        return me

    def seat_owner(self, digest: str) -> Optional[int]:
        """The account a seat's token (its digest) is bound to; None when none (t47lobby)."""
        return self._owner(digest)

    def _owner(self, digest: str) -> Optional[int]:
        if self.store is None:
            return None
        if digest in self.seats:
            return self.seats[digest]
        owner = self.store.seat_account(digest)
        if len(self.seats) >= SEAT_CACHE:
            self.seats.clear()
        self.seats[digest] = owner
        return owner

    def _expired(self, used: float) -> bool:
        return used < self.clock() - A.SESSION_DAYS * 86400.0

    def _touch(self, digest: str, used: float) -> None:
        assert self.store is not None
        now = self.clock()
        if now - used >= A.SESSION_TOUCH:
            self.store.touch_session(digest, now)

    # ------------------------------------------------------------ the messages

    def _register(self, conn: Conn, m: P.Register) -> None:
        assert self.store is not None
        why = A.password_problem(m.password)
        if why is not None:
            raise Refused("bad_message", why, least=A.MIN_PASSWORD, most=A.MAX_PASSWORD)
        wait = self.attempts.check_register(conn.address)
        if wait is not None:
            raise Refused("limit", wait.key, seconds=wait.seconds)
        if self.store.by_name(m.name) is not None:  # asked again after the hash: two may race
            raise Refused("name_taken", "accounts.name_taken", name=m.name)
        self._hash_then(conn, A.hash_password, (m.password,), lambda h: self._registered(conn, m, h))

    def _registered(self, conn: Conn, m: P.Register, hashed: str) -> None:
        assert self.store is not None
        try:
            acc = self.store.create(m.name, hashed, self.clock())
        except NameTaken:
            raise Refused("name_taken", "accounts.name_taken", name=m.name) from None
        self.attempts.registered(conn.address)
        log.info("account %d registered", acc.id)  # never the name's password, nor the session
        self._open_session(conn, acc, m.device, m.device_key)

    def _sign_in(self, conn: Conn, m: P.SignIn) -> None:
        assert self.store is not None
        key = A.digest(m.device_key) if m.device_key else None
        acc = self.store.by_name(m.name)
        known = acc is not None and key is not None and self.store.knows_device(acc.id, key)
        wait = self.attempts.check_sign_in(conn.address, key if known else None)
        if wait is not None:
            raise Refused("limit", wait.key, seconds=wait.seconds)
        if acc is not None and not known:
            left = acc.last_fail + A.account_wait(acc.fails) - self.clock()
            if left > 0:
                raise Refused("limit", "accounts.wait_account", seconds=math.ceil(left))
        stored = acc.password if acc is not None else ""  # "": compared with a hash of nothing (_check)
        self._hash_then(conn, _check, (m.password, stored),
                        lambda result: self._checked(conn, m, acc, known, key, result))

    def _checked(self, conn: Conn, m: P.SignIn, acc: Optional[Account], known: bool, key: Optional[str],
                 result: tuple[bool, Optional[str]]) -> None:
        assert self.store is not None
        ok, rehashed = result
        if acc is None or not ok:
            self.attempts.failed(conn.address, key if known else None)
            if acc is not None and not known:
                self.store.failed(acc.id, self.clock())
            raise Refused("wrong_password", "accounts.wrong_password")
        if acc.banned:
            raise Refused("banned", "accounts.banned", name=acc.name)
        if not known:  # the owner's own computer does not forgive a guesser's wrong passwords
            self.store.succeeded(acc.id)
        if rehashed is not None:
            self.store.set_password(acc.id, rehashed)
        self._open_session(conn, acc, m.device, m.device_key)

    def _open_session(self, conn: Conn, acc: Account, device: str, device_key: Optional[str]) -> None:
        assert self.store is not None
        token = A.new_token()
        d = A.digest(token)
        now = self.clock()
        if self.monotonic() - self.purged >= PURGE_EVERY:
            self.purged = self.monotonic()
            self.store.purge(now - A.SESSION_DAYS * 86400.0)
        self.store.add_session(d, acc.id, clean(device, 40), now)
        device_key = device_key or A.new_token()
        self.store.know_device(acc.id, A.digest(device_key), now)
        self.signed[conn] = _Signed(acc.id, acc.name, d, self.monotonic())
        conn.send(P.AccountInfo(name=acc.name, session=token, device_key=device_key, days=A.SESSION_DAYS))

    def _whoami(self, conn: Conn, m: P.WhoAmI) -> None:
        assert self.store is not None
        if m.session is None:
            me = self.current(conn)
            if me is None:
                raise Refused("bad_session", "accounts.not_signed_in")
            conn.send(P.AccountInfo(name=me.name, days=A.SESSION_DAYS))
            return
        s = self.store.session(A.digest(m.session))
        if s is None or self._expired(s.used):
            raise Refused("bad_session", "accounts.bad_session")
        acc = self.store.by_id(s.account)
        if acc is None:
            raise Refused("bad_session", "accounts.bad_session")
        if acc.banned:
            raise Refused("banned", "accounts.banned", name=acc.name)
        self._touch(s.digest, s.used)
        self.signed[conn] = _Signed(acc.id, acc.name, s.digest, self.monotonic())
        conn.send(P.AccountInfo(name=acc.name, days=A.SESSION_DAYS))

    def _sign_out(self, conn: Conn) -> None:
        assert self.store is not None
        me = self.current(conn)
        if me is None:
            raise Refused("bad_session", "accounts.not_signed_in")
        ended = int(self.store.drop_session(me.digest))
        self.signed.pop(conn, None)
        conn.send(P.SignedOut(everywhere=False, ended=ended))

    def _sign_out_all(self, conn: Conn) -> None:
        assert self.store is not None
        me = self.current(conn)
        if me is None:
            raise Refused("bad_session", "accounts.not_signed_in")
        ended = self.store.drop_sessions(me.account)
        for c, s in list(self.signed.items()):
            if s.account == me.account:
                del self.signed[c]
                if c is not conn:
                    c.send(P.SignedOut(everywhere=True, ended=ended))
        conn.send(P.SignedOut(everywhere=True, ended=ended))
        log.info("account %d signed out everywhere (%d sessions)", me.account, ended)

    # ------------------------------------------------------------ hashing off the loop

    def _hash_then(self, conn: Conn, work: Callable[..., Any], args: tuple[Any, ...],
                   then: Callable[[Any], None]) -> None:
        """Run ``work(*args)`` in the hashing threads, then ``then(result)`` on the event loop
        (its Refused answered to ``conn``); Refused now when too many wait."""
        if conn in self.hashing:
            raise Refused("limit", "accounts.one_at_a_time")
        if len(self.hashing) >= MAX_WAITING:
            raise Refused("limit", "accounts.busy")
        if self.pool is None:
            self.pool = ThreadPoolExecutor(max_workers=MAX_HASHING, thread_name_prefix="gonzaga-hash")
        self.hashing.add(conn)
        task = asyncio.get_running_loop().create_task(self._hash(conn, work, args, then))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _hash(self, conn: Conn, work: Callable[..., Any], args: tuple[Any, ...],
                    then: Callable[[Any], None]) -> None:
        try:
            assert self.pool is not None
            result = await asyncio.get_running_loop().run_in_executor(self.pool, work, *args)
            self.hashes += 1
            then(result)
        except Refused as r:
            conn.refuse(r)
        except Exception:
            log.exception("an account message from %s failed", conn.peer)
            conn.refuse(Refused("server", "net.server_failed"))
        finally:
            self.hashing.discard(conn)


def _check(password: str, stored: str) -> tuple[bool, Optional[str]]:
    """Whether ``password`` matches, and its new hash when the stored one has older parameters."""
    if not stored:
        if not _nobody:
            _nobody.append(A.hash_password(A.new_token()))
        A.verify_password(password, _nobody[0])
        return False, None
    ok = A.verify_password(password, stored)
    return ok, (A.hash_password(password) if ok and A.needs_rehash(stored) else None)
