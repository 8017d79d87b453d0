"""What a player types or pastes to play online (issue 39/50): an address, a whole invite, a
code, a name, and this computer's own address on its network to show friends. Each parser gives
the cleaned value, or None and the message the player reads."""
from __future__ import annotations

import re
import socket
from typing import Optional
from urllib.parse import urlsplit

from ..words import i18n
from .cleantext import MAX_NAME, clean_name
from .invite import split_invite, split_pin, with_pin
from .protocol import CODE_ALPHABET, CODE_LENGTH, DEFAULT_PORT



def parse_address(text: str) -> tuple[Optional[str], str]:
    """(``wss://host:port#fingerprint``, "") for an address as a player types or pastes it
    (``192.168.1.20:7373``, ``wss://host#<fingerprint>``, ``ws://host``...), else (None, the
    message). Without a scheme it is ``wss://``: encrypted unless the player writes ``ws://``."""
    s = text.strip()
    if not s:
        return None, i18n.t("online.bad_address_empty")
    bad = None, i18n.t("online.bad_address", address=s[:60])
    if "://" not in s:
        s = "wss://" + s
    try:
        base, pin = split_pin(s)
    except ValueError:
        return None, i18n.t("online.bad_fingerprint", address=s[:60])
    try:
        u = urlsplit(base)
        port = u.port
    except ValueError:
        return bad
    host = u.hostname
    if u.scheme not in ("ws", "wss") or not host or u.path not in ("", "/") or u.query or u.fragment \
            or u.username or u.password or not re.fullmatch(r"[A-Za-z0-9._:-]{1,253}", host):
        return bad
    if ":" in host:  # an IPv6 address keeps its brackets
        host = f"[{host}]"
    return with_pin(f"{u.scheme}://{host}:{port or DEFAULT_PORT}", pin), ""


def parse_invite(text: str) -> tuple[Optional[str], Optional[str], str]:
    """(address, code or None, "") from a host's whole invite (``invite.format_invite``) or a bare
    address, else (None, None, the message)."""
    address, code = split_invite(text)
    url, problem = parse_address(address)
    if url is None:
        return None, None, problem
    if code is None:
        return url, None, ""
    code, problem = parse_code(code)
    return (url, code, "") if code else (None, None, problem)


def parse_code(text: str) -> tuple[Optional[str], str]:
    """(the invite code, "") or (None, the message): capitals, spaces and dashes ignored."""
    code = re.sub(r"[\s-]", "", text).upper()
    if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
        return None, i18n.t("online.bad_code")
    return code, ""


def parse_name(text: str) -> tuple[Optional[str], str]:
    """A name as it is sent: control, invisible and text-direction characters taken out, spaces
    collapsed (the server refuses a name that holds any: ``cleantext.py``)."""
    name = clean_name(text)
    if not 1 <= len(name) <= MAX_NAME:
        return None, i18n.t("online.bad_name")
    return name, ""


def lan_ip() -> Optional[str]:
    """This computer's address on its network (the one friends type), or None. A UDP socket
    "connected" to a documentation address sends nothing; it only picks the outgoing interface."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))
            ip = s.getsockname()[0]
    except OSError:
        return None
    return None if ip.startswith("127.") or ip == "0.0.0.0" else ip
