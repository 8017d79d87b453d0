"""Accounts on a community server (issue 47): passwords, names, session tokens and how often a
password may be tried. Pure logic with the clock it is given; the table of accounts is
``account_store.py``, the server's messages ``account_desk.py``.

**Passwords** are hashed with ``hashlib.scrypt`` (no new dependency; memory-hard): n = 2^14,
r = 8, p = 1, a 16-byte random salt, 32 bytes out. That costs 16 MiB (128·r·n) and, measured
with ``gonzaga accounts figures`` on the 2-core machine of this project, 64-66 ms of CPU per
hash (docs/server.md, "Accounts"): slow enough that a stolen table costs a guesser 16 MiB and
65 ms per guess per account, fast enough that a server answers a sign-in at once, and small
enough that the few hashes allowed at once (``account_desk.MAX_HASHING``) stay far under a small
server's memory. n = 2^15 took 156 ms of CPU there, past the 100 ms a sign-in may cost. The parameters are
stored with each hash (``scrypt$n$r$p$salt$hash``), so they can be raised later: a hash with
older parameters is rehashed at the next sign-in (``needs_rehash``).

**Names** are checked as seat names are (``cleantext.name_problem``: refused, not cleaned) and
unique regardless of case and width: ``fold`` (NFKC, then case folding) is the key, so "Ann",
"ANN" and "Ａｎｎ" are one name.

**Session tokens** are 256 random bits (``secrets.token_urlsafe(32)``); the server keeps only
their SHA-256, so its database cannot be used to sign in, and a token is checked by looking its
hash up (no comparison that leaks timing). A session lasts ``SESSION_DAYS`` from its last use.

**Guessing** (``Attempts``) is limited two ways, and a refusal is decided before any hash is
computed (a guesser costs the server nothing while it waits):

- per address (``gate.address_of``: an IPv6 /64 is one address): at most ``ADDRESS_FAILS``
  wrong passwords in ``ADDRESS_WINDOW`` seconds, whatever the account; then the address waits
  until the oldest of them is that old. That is one guess a minute, sustained, per address.
- per account: after ``ACCOUNT_FREE`` wrong passwords in a row, each next try waits
  ``ACCOUNT_BACKOFF`` seconds, doubling up to ``ACCOUNT_MAX_WAIT`` (15 minutes): a guesser
  spread over many addresses gets about four guesses an hour per account. That wait is kept in
  the database (several server processes share it). **It does not lock the owner out**: it
  applies only to sign-ins from a device the account has never signed in from. A device that
  signed in once keeps a random key (``device_key``, sent with every sign-in, its hash stored
  with the account); a sign-in carrying a known key is limited only per address and per device
  (``DEVICE_FAILS`` in ``ADDRESS_WINDOW``). A guesser cannot know a key, so the most they can
  do is make the owner wait up to 15 minutes on a new computer while the guessing goes on.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
import unicodedata
from collections import deque
from dataclasses import dataclass
from typing import Callable, Optional

from .cleantext import name_problem

SCRYPT_N = 2 ** 14
SCRYPT_R = 8
SCRYPT_P = 1
SALT_BYTES = 16
HASH_BYTES = 32
MIN_PASSWORD = 8  # characters
MAX_PASSWORD = 200  # characters: a longer one is refused before hashing

SESSION_DAYS = 30  # a session not used for this long is gone
SESSION_TOUCH = 3600.0  # a session's last use is written at most this often (seconds)

ADDRESS_FAILS = 10  # wrong passwords from one address ...
ADDRESS_WINDOW = 600.0  # ... in this many seconds; then it waits
DEVICE_FAILS = 10  # wrong passwords from one known device of an account, in ADDRESS_WINDOW
ACCOUNT_FREE = 5  # wrong passwords in a row against one account from unknown devices before any wait
ACCOUNT_BACKOFF = 30.0  # the first wait after those, doubling...
ACCOUNT_MAX_WAIT = 900.0  # ...up to this
REGISTERS = 3  # accounts made from one address ...
REGISTER_WINDOW = 3600.0  # ... in this many seconds
PROVISIONAL_GAMES = 10  # rated games before a rating is no longer marked provisional (ratings.py)
TRACKED = 100_000  # addresses (and devices) remembered at once; the quietest are forgotten first


def provisional(games: int) -> bool:
    """Whether a rating after ``games`` rated games is still marked provisional (the leaderboard's,
    the profile's and the lobby's "?"): the rule, written once for the server and the screens."""
    return games < PROVISIONAL_GAMES


# ---------------------------------------------------------------- passwords

def password_problem(password: str) -> Optional[str]:
    """None for a password that may be set; else the words key of why not."""
    if len(password) < MIN_PASSWORD:
        return "accounts.password_short"
    if len(password) > MAX_PASSWORD:
        return "accounts.password_long"
    return None


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=2 * 128 * r * n + 1024 * 1024,
                          dklen=HASH_BYTES)


def hash_password(password: str, n: int = SCRYPT_N, r: int = SCRYPT_R, p: int = SCRYPT_P) -> str:
    """The stored form of ``password``: ``scrypt$n$r$p$salt$hash`` (salt and hash in base64url)."""
    salt = secrets.token_bytes(SALT_BYTES)
    return f"scrypt${n}${r}${p}${_b64(salt)}${_b64(_scrypt(password, salt, n, r, p))}"


def _parts(stored: str) -> Optional[tuple[int, int, int, bytes, bytes]]:
    bits = stored.split("$")
    if len(bits) != 6 or bits[0] != "scrypt":
        return None
    try:
        n, r, p = int(bits[1]), int(bits[2]), int(bits[3])
        return n, r, p, _unb64(bits[4]), _unb64(bits[5])
    except ValueError:
        return None


def verify_password(password: str, stored: str) -> bool:
    """Whether ``password`` is the one ``stored`` was made from (False for a damaged hash)."""
    parts = _parts(stored)
    if parts is None:
        return False
    n, r, p, salt, want = parts
    try:
        got = _scrypt(password, salt, n, r, p)
    except (ValueError, MemoryError):
        return False
    return hmac.compare_digest(got, want)


def needs_rehash(stored: str) -> bool:
    """Whether ``stored`` was made with other parameters than today's (rehashed at the next sign-in)."""
    parts = _parts(stored)
    return parts is None or parts[:3] != (SCRYPT_N, SCRYPT_R, SCRYPT_P)


# ---------------------------------------------------------------- names and tokens

def fold(name: str) -> str:
    """The key that makes a name unique: the same for every case and width of it."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def account_name_problem(name: str) -> Optional[str]:
    """None for a name an account may take (as a seat's name may be shown); else why not, in English."""
    return name_problem(name)


def new_token() -> str:
    """A session token or a device key: 256 random bits, URL-safe (43 characters)."""
    return secrets.token_urlsafe(32)


def digest(token: str) -> str:
    """What the server keeps of a token or a device key."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------- attempts

@dataclass(frozen=True)
class Wait:
    """A refusal to try now: the words key and the seconds to wait."""

    key: str
    seconds: int


def account_wait(fails: int) -> float:
    """Seconds an account waits, from unknown devices, after ``fails`` wrong passwords in a row."""
    if fails < ACCOUNT_FREE:
        return 0.0
    return min(ACCOUNT_MAX_WAIT, ACCOUNT_BACKOFF * 2.0 ** min(fails - ACCOUNT_FREE, 30))


class Attempts:
    """The per-address and per-device counts of wrong passwords and new accounts, in memory
    (the per-account wait is the store's: ``account_wait``). ``clock``: seconds, monotonic."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self.clock = clock
        self._fails: dict[str, deque[float]] = {}  # address, or "device:<hash>" -> times of wrong passwords
        self._registers: dict[str, deque[float]] = {}

    def _times(self, table: dict[str, deque[float]], key: str, window: float) -> deque[float]:
        now = self.clock()
        times = table.get(key)
        if times is None:
            if len(table) >= TRACKED:
                self._forget(table, now, window)
            times = table[key] = deque()
        while times and now - times[0] >= window:
            times.popleft()
        return times

    @staticmethod
    def _forget(table: dict[str, deque[float]], now: float, window: float) -> None:
        for k in [k for k, t in table.items() if not t or now - t[-1] >= window]:
            del table[k]
        if len(table) >= TRACKED:  # all busy: the quietest tenth goes
            for k in sorted(table, key=lambda k: table[k][-1])[: max(1, len(table) // 10)]:
                del table[k]

    def _full(self, table: dict[str, deque[float]], key: str, cap: int, window: float, why: str) -> Optional[Wait]:
        times = self._times(table, key, window)
        if len(times) < cap:
            return None
        return Wait(why, int(window - (self.clock() - times[0])) + 1)

    def check_sign_in(self, address: str, device: Optional[str]) -> Optional[Wait]:
        """A Wait when ``address`` (or the known ``device``, a key's digest) has guessed enough for now."""
        w = self._full(self._fails, address, ADDRESS_FAILS, ADDRESS_WINDOW, "accounts.wait_address")
        if w is None and device is not None:
            w = self._full(self._fails, "device:" + device, DEVICE_FAILS, ADDRESS_WINDOW, "accounts.wait_address")
        return w

    def failed(self, address: str, device: Optional[str]) -> None:
        now = self.clock()
        self._times(self._fails, address, ADDRESS_WINDOW).append(now)
        if device is not None:
            self._times(self._fails, "device:" + device, ADDRESS_WINDOW).append(now)

    def check_register(self, address: str) -> Optional[Wait]:
        return self._full(self._registers, address, REGISTERS, REGISTER_WINDOW, "accounts.wait_register")

    def registered(self, address: str) -> None:
        self._times(self._registers, address, REGISTER_WINDOW).append(self.clock())

    def tracked(self) -> int:
        return len(self._fails) + len(self._registers)
