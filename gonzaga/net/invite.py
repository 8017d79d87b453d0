"""What a host gives friends (issue 39): the server's address with its certificate's fingerprint,
and the invite, that address with the game's code, in one line to copy.

What belongs here: writing and reading those two texts. Their parts are checked by
``typed.parse_address`` (the address) and ``typed.parse_code`` (the code); the fingerprint is
``tls.fingerprint``'s form.

- address: ``wss://192.168.1.20:7373#<fingerprint>`` (the fingerprint after ``#``, which a
  WebSocket client never sends: it is ours, for pinning). ``ws://`` has no fingerprint.
- invite: ``wss://192.168.1.20:7373/ABC234#<fingerprint>``: the code is the address's path.

An invite can also travel as a small text file (``save_invite``, ``read_invite_file``): where
there is no clipboard, or to send by mail; the join screen takes its path or the file dropped on
the window.

``split_pin`` gives back the address the WebSocket library opens and the pin the client checks;
``connect_pinned`` opens such an address with asyncio (the check's and the bots' connections; the
desktop's is ``client.Connection``).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Optional, Union
from urllib.parse import urlsplit

from websockets.asyncio.client import ClientConnection, connect

from ..table import persistence
from .tls import PinMismatch, check_pin, client_context, normalise_pin, peer_der


def with_pin(url: str, pin: Optional[str]) -> str:
    """``url`` (``wss://host:port``) with the fingerprint a client must find there."""
    return f"{url}#{pin}" if pin else url


class BadPin(ValueError):
    """An address whose part after ``#`` is not a certificate fingerprint, or a fingerprint on a
    ``ws://`` address (nothing to pin): told to the player by this type."""


def split_pin(address: str) -> tuple[str, Optional[str]]:
    """(the address without its fingerprint, the fingerprint or None). BadPin (a ValueError) for
    a fragment that is not a fingerprint, or one on a ``ws://`` address (nothing to pin)."""
    base, sep, frag = address.partition("#")
    if not sep:
        return address, None
    pin = normalise_pin(frag)
    if pin is None:
        raise BadPin(f"not a certificate fingerprint: {frag[:70]!r}")
    if not base.startswith("wss://"):
        raise BadPin("a fingerprint needs an encrypted address (wss://)")
    return base, pin


def format_invite(address: str, code: Optional[str]) -> str:
    """The one line a host copies for friends: the address with the code as its path (the bare
    address while the code is not known yet)."""
    base, pin = split_pin(address)
    if not code:
        return address
    return with_pin(f"{base.rstrip('/')}/{code}", pin)


def split_invite(text: str) -> tuple[str, Optional[str]]:
    """(the address with its fingerprint, the code or None) from an invite or a bare address;
    neither part is checked here (``typed.parse_invite`` does)."""
    s = text.strip()
    base, sep, frag = s.partition("#")
    try:
        u = urlsplit(base if "://" in base else "wss://" + base)
    except ValueError:
        return s, None
    path = u.path.strip("/")
    if not path or "/" in path:
        return s, None
    root = base[: len(base) - len(u.path)] if base.endswith(u.path) else base
    return root + (sep + frag if sep else ""), path


INVITE_FILE_BYTES = 4096  # an invite file holds one line (and a few words around it)


def invite_folder() -> Path:
    """Where invite files are saved: the user data folder's ``invites``."""
    return persistence.data_dir() / "invites"


def save_invite(invite: str, code: str, folder: Optional[Union[str, Path]] = None) -> Path:
    """Write the invite (one line) to ``gonzaga-invite-<code>.txt`` in ``folder`` (the invites
    folder), atomically; its path. OSError when it cannot be written."""
    path = Path(folder if folder is not None else invite_folder()) / f"gonzaga-invite-{code}.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    persistence.atomic_write_bytes(path, (invite + "\n").encode("utf-8"))
    return path


def read_invite_file(path: Union[str, Path]) -> Optional[str]:
    """The invite in a file (its first word with ``://``), or None when ``path`` is no readable
    file of a few lines or holds none."""
    try:
        p = Path(str(path).strip().strip('"')).expanduser()
        if not p.is_file() or p.stat().st_size > INVITE_FILE_BYTES:
            return None
        text = p.read_text("utf-8", errors="replace")
    except (OSError, ValueError):
        return None
    return next((w for w in re.split(r"\s+", text) if "://" in w), None)


async def connect_pinned(address: str, **kw: Any) -> ClientConnection:
    """An asyncio websockets connection to ``address`` (``wss://...#<fingerprint>`` pinned,
    ``wss://`` checked by authority, ``ws://`` plain); PinMismatch before anything is sent when
    the server shows another certificate. The check's and the bots' connections."""
    url, pin = split_pin(address)
    ws = await connect(url, ssl=client_context(pin) if url.startswith("wss://") else None, **kw)
    if pin is not None:
        try:
            check_pin(peer_der(ws), pin)
        except PinMismatch:
            await ws.close()
            raise
    return ws
