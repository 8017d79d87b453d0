"""Encrypted connections for online play (issue 39): the server's certificate and the client's pin.

What belongs here: making and reading the server's self-signed certificate (``ensure_cert``),
its SHA-256 fingerprint (``fingerprint``), the TLS settings of a server (``server_context``)
and of a client (``client_context``), and the client's check that the server it reached is the
one the invite names (``check_pin``). The invite's format is ``invite.py``.

Why a pinned self-signed certificate: a home host has no domain name for a certificate authority
to vouch for, so the host makes its own certificate once (kept in the user data folder) and the
invite carries its fingerprint. A joining game accepts exactly that certificate; another one (a
man in the middle, or a different server now on that address) is refused with ``PinMismatch``
before anything is sent: the invite code, the host key or a seat's token never reach it.

A ``wss://`` address without a fingerprint is checked the usual way (a certificate authority and
the host name: a public ``gonzaga serve`` with a certificate from Let's Encrypt, say).
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
import ssl
from pathlib import Path
from typing import Any, Optional, Union

from . import selfsigned

CERT_NAME = "gonzaga-cert.pem"
KEY_NAME = "gonzaga-key.pem"
VALID_DAYS = 20 * 365  # a pinned certificate is not checked for expiry by anyone but us: make it last


class PinMismatch(Exception):
    """The server showed a certificate other than the one the invite names."""

    def __init__(self, expected: str, found: str):
        super().__init__(f"the server's certificate has the fingerprint {found}, the invite names {expected}")
        self.expected = expected
        self.found = found


class CertError(OSError):
    """A certificate or key file that cannot be made or used (the message names the file)."""


# ---------------------------------------------------------------- fingerprints

def fingerprint(der: bytes) -> str:
    """A certificate's SHA-256 as an invite writes it: 52 lowercase base32 letters and digits
    (shorter than hex, no character that needs escaping in an address)."""
    return base64.b32encode(hashlib.sha256(der).digest()).decode("ascii").rstrip("=").lower()


def normalise_pin(text: str) -> Optional[str]:
    """A fingerprint as ``fingerprint`` writes it, from that form or from hex (as ``openssl x509
    -fingerprint -sha256`` prints it, with or without colons, any case); None if it is neither."""
    s = text.strip()
    if re.fullmatch(r"[A-Za-z2-7]{52}", s):
        return s.lower()
    h = s.replace(":", "")
    if re.fullmatch(r"[0-9A-Fa-f]{64}", h):
        return base64.b32encode(bytes.fromhex(h)).decode("ascii").rstrip("=").lower()
    return None


def file_fingerprint(cert_path: Union[str, Path]) -> str:
    """The fingerprint of the (first) certificate in a PEM file."""
    try:
        pem = Path(cert_path).read_text("ascii")
        return fingerprint(ssl.PEM_cert_to_DER_cert(pem))
    except (OSError, ValueError, UnicodeDecodeError) as e:
        raise CertError(f"cannot read the certificate {cert_path}: {getattr(e, 'strerror', None) or e}") from None


def check_pin(der: Optional[bytes], expected: str) -> None:
    """PinMismatch unless ``der`` is the certificate whose fingerprint is ``expected``."""
    found = fingerprint(der) if der else "(none)"
    if not hmac.compare_digest(found, expected):
        raise PinMismatch(expected, found)


# ---------------------------------------------------------------- the server's certificate

def ensure_cert(folder: Union[str, Path], name: str = "Gonzaga") -> tuple[Path, Path]:
    """The certificate and key in ``folder`` (``gonzaga-cert.pem``, ``gonzaga-key.pem``), made the
    first time: an EC P-256 key (fast handshakes) and a self-signed certificate (about 30 ms). The key file is
    readable by the user only. CertError when the folder cannot be written."""
    folder = Path(folder)
    cert, key = folder / CERT_NAME, folder / KEY_NAME
    if cert.exists() and key.exists():
        return cert, key
    try:
        cert_pem, key_pem = _self_signed(name)
        folder.mkdir(parents=True, exist_ok=True)
        _write_private(key, key_pem)
        tmp = cert.with_name(cert.name + ".tmp")
        tmp.write_bytes(cert_pem)
        os.replace(tmp, cert)  # the certificate last: a half-made pair is made again next time
    except OSError as e:
        raise CertError(f"cannot write the certificate in {folder}: {e.strerror or e}") from None
    return cert, key


def _write_private(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def _self_signed(name: str) -> tuple[bytes, bytes]:
    """(certificate PEM, key PEM). The names in it do not matter to a pinning client; localhost
    and 127.0.0.1 are there so that a browser or ``openssl s_client`` shows something sensible.
    Written with the standard library (selfsigned.py says why not the cryptography package)."""
    return selfsigned.self_signed(name, VALID_DAYS)


# ---------------------------------------------------------------- contexts

def server_context(cert: Union[str, Path], key: Union[str, Path]) -> ssl.SSLContext:
    """TLS 1.2 or later with the certificate and key; CertError naming the files if they do not fit."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    # no TLS 1.3 session tickets: clients pin the certificate and never resume, and a ticket
    # arriving while websockets' sync client writes its request from another thread sometimes
    # lost that request (the handshake then failed after 10 s)
    ctx.num_tickets = 0
    try:
        ctx.load_cert_chain(str(cert), str(key))
    except (OSError, ssl.SSLError) as e:
        raise CertError(f"cannot use the certificate {cert} with the key {key}: "
                        f"{getattr(e, 'strerror', None) or getattr(e, 'reason', None) or e}") from None
    return ctx


def client_context(pin: Optional[str]) -> ssl.SSLContext:
    """With a pin: no authority and no host name (the pin, checked by ``check_pin`` once the
    handshake is done and before anything is sent, is the whole check). Without: the system's
    authorities and the host name, as a browser would."""
    if pin is None:
        return ssl.create_default_context()
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


def peer_der(ws: Any) -> Optional[bytes]:
    """The certificate the server showed on a websockets connection (sync or asyncio), as DER."""
    sock = getattr(ws, "socket", None)
    if isinstance(sock, ssl.SSLSocket):
        return sock.getpeercert(binary_form=True)
    transport = getattr(ws, "transport", None)
    obj = transport.get_extra_info("ssl_object") if transport is not None else None
    return obj.getpeercert(binary_form=True) if obj is not None else None

