"""A self-signed certificate with an EC P-256 key, written with the standard library alone (issue
46): the host's certificate for ``wss://`` (tls.py's ``ensure_cert``), made once per host.

Why not the ``cryptography`` package: it was the only reason to ship it, and it has no macOS
Intel wheel since version 49 (so that build compiled it from source), it weighs about 10 MB in
the built folder (its own copy of OpenSSL), and it brings cffi and pycparser along. What making
this certificate needs is small and fixed: a random private number, one point multiplication for
the public key, one ECDSA signature (FIPS 186-4 with SEC 2's curve P-256) and the DER encoding of
RFC 5280's certificate and RFC 5208/5915's key. Everything after that (the handshakes, which use
the key thousands of times) is done by Python's ssl module, that is OpenSSL.

Side channels do not matter here: the key is used by this code once, on the host's own machine,
to sign its own certificate. The random numbers come from ``secrets`` (the system's generator).
tests/test_net_tls.py checks the result with OpenSSL: the handshake proves the key matches the
certificate, ``openssl verify -check_ss_sig`` checks the signature, and fixed vectors check the
curve arithmetic.
"""
from __future__ import annotations

import base64
import datetime
import hashlib
import ipaddress
import secrets
from typing import Optional

# SEC 2, 2.4.2 (secp256r1 = NIST P-256 = prime256v1)
P = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF
A = P - 3
B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
G = (0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
     0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5)

Point = Optional[tuple[int, int]]  # affine; None is the point at infinity

OID_EC_PUBLIC_KEY = "1.2.840.10045.2.1"
OID_P256 = "1.2.840.10045.3.1.7"
OID_ECDSA_SHA256 = "1.2.840.10045.4.3.2"
OID_COMMON_NAME = "2.5.4.3"
OID_SUBJECT_ALT_NAME = "2.5.29.17"
OID_BASIC_CONSTRAINTS = "2.5.29.19"


# ---------------------------------------------------------------- the curve

def _jadd(p1: tuple[int, int, int], p2: tuple[int, int, int]) -> tuple[int, int, int]:
    """Jacobian addition (Z = 0 is infinity), doubling when the points are equal."""
    x1, y1, z1 = p1
    x2, y2, z2 = p2
    if z1 == 0:
        return p2
    if z2 == 0:
        return p1
    z1z1, z2z2 = z1 * z1 % P, z2 * z2 % P
    u1, u2 = x1 * z2z2 % P, x2 * z1z1 % P
    s1, s2 = y1 * z2 * z2z2 % P, y2 * z1 * z1z1 % P
    if u1 == u2:
        if s1 != s2:
            return (1, 1, 0)
        return _jdouble(p1)
    h, r = (u2 - u1) % P, (s2 - s1) % P
    hh = h * h % P
    hhh = h * hh % P
    v = u1 * hh % P
    x3 = (r * r - hhh - 2 * v) % P
    y3 = (r * (v - x3) - s1 * hhh) % P
    return (x3, y3, h * z1 * z2 % P)


def _jdouble(p1: tuple[int, int, int]) -> tuple[int, int, int]:
    x, y, z = p1
    if z == 0 or y == 0:
        return (1, 1, 0)
    yy = y * y % P
    s = 4 * x * yy % P
    zz = z * z % P
    m = 3 * (x - zz) * (x + zz) % P  # a = -3
    x3 = (m * m - 2 * s) % P
    y3 = (m * (s - x3) - 8 * yy * yy) % P
    return (x3, y3, 2 * y * z % P)


def multiply(k: int, point: Point = G) -> Point:
    """k times the point (double and add over k's bits)."""
    if point is None or k % N == 0:
        return None
    acc, add = (1, 1, 0), (point[0], point[1], 1)
    for bit in bin(k % N)[2:]:
        acc = _jdouble(acc)
        if bit == "1":
            acc = _jadd(acc, add)
    x, y, z = acc
    if z == 0:
        return None
    zi = pow(z, -1, P)
    return (x * zi * zi % P, y * zi * zi * zi % P)


def on_curve(point: Point) -> bool:
    return point is not None and (point[1] ** 2 - point[0] ** 3 - A * point[0] - B) % P == 0


def sign(d: int, message: bytes, k: Optional[int] = None) -> tuple[int, int]:
    """ECDSA with SHA-256: (r, s). ``k`` is the per-signature secret, random unless a test gives it."""
    e = int.from_bytes(hashlib.sha256(message).digest(), "big")
    while True:
        kk = k if k is not None else 1 + secrets.randbelow(N - 1)
        point = multiply(kk)
        assert point is not None
        r = point[0] % N
        s = pow(kk, -1, N) * (e + r * d) % N
        if r and s:
            return r, s
        if k is not None:
            raise ValueError("this k gives no signature")


# ---------------------------------------------------------------- DER

def _len(n: int) -> bytes:
    if n < 0x80:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


def tlv(tag: int, content: bytes) -> bytes:
    return bytes([tag]) + _len(len(content)) + content


def seq(*parts: bytes) -> bytes:
    return tlv(0x30, b"".join(parts))


def integer(n: int) -> bytes:
    """A non-negative INTEGER, with the leading zero byte that keeps it positive."""
    return tlv(0x02, n.to_bytes(n.bit_length() // 8 + 1, "big"))


def oid(dotted: str) -> bytes:
    nums = [int(x) for x in dotted.split(".")]
    body = bytearray([40 * nums[0] + nums[1]])
    for n in nums[2:]:
        chunk = [n & 0x7F]
        while n > 0x7F:
            n >>= 7
            chunk.append(0x80 | (n & 0x7F))
        body += bytes(reversed(chunk))
    return tlv(0x06, bytes(body))


def bit_string(data: bytes) -> bytes:
    return tlv(0x03, b"\x00" + data)


def octet_string(data: bytes) -> bytes:
    return tlv(0x04, data)


def explicit(n: int, content: bytes) -> bytes:
    return tlv(0xA0 | n, content)


def time_value(t: datetime.datetime) -> bytes:
    """RFC 5280 4.1.2.5: UTCTime through 2049, GeneralizedTime from 2050."""
    t = t.astimezone(datetime.timezone.utc)
    if t.year < 2050:
        return tlv(0x17, t.strftime("%y%m%d%H%M%SZ").encode("ascii"))
    return tlv(0x18, t.strftime("%Y%m%d%H%M%SZ").encode("ascii"))


def _name(common_name: str) -> bytes:
    return seq(tlv(0x31, seq(oid(OID_COMMON_NAME), tlv(0x0C, common_name.encode("utf-8")))))


def _point_bytes(q: tuple[int, int]) -> bytes:
    return b"\x04" + q[0].to_bytes(32, "big") + q[1].to_bytes(32, "big")


def _pem(kind: str, der: bytes) -> bytes:
    body = base64.encodebytes(der).decode("ascii").replace("\n", "")
    lines = [body[i:i + 64] for i in range(0, len(body), 64)]
    return ("-----BEGIN %s-----\n%s\n-----END %s-----\n" % (kind, "\n".join(lines), kind)).encode("ascii")


# ---------------------------------------------------------------- the certificate

def certificate_der(d: int, common_name: str, not_before: datetime.datetime, not_after: datetime.datetime,
                    serial: int, dns: str = "localhost", ip: str = "127.0.0.1", k: Optional[int] = None) -> bytes:
    """An X.509 v3 certificate for the key ``d``, signed by itself."""
    q = multiply(d)
    assert q is not None and on_curve(q)
    alg = seq(oid(OID_ECDSA_SHA256))
    spki = seq(seq(oid(OID_EC_PUBLIC_KEY), oid(OID_P256)), bit_string(_point_bytes(q)))
    san = seq(tlv(0x82, dns.encode("ascii")), tlv(0x87, ipaddress.ip_address(ip).packed))
    extensions = seq(seq(oid(OID_SUBJECT_ALT_NAME), octet_string(san)),
                     seq(oid(OID_BASIC_CONSTRAINTS), tlv(0x01, b"\xff"), octet_string(seq())))
    tbs = seq(explicit(0, integer(2)), integer(serial), alg, _name(common_name),
              seq(time_value(not_before), time_value(not_after)), _name(common_name), spki,
              explicit(3, extensions))
    r, s = sign(d, tbs, k)
    return seq(tbs, alg, bit_string(seq(integer(r), integer(s))))


def private_key_der(d: int) -> bytes:
    """PKCS #8 (RFC 5208) holding RFC 5915's ECPrivateKey, as OpenSSL writes them."""
    q = multiply(d)
    assert q is not None
    ec_key = seq(integer(1), octet_string(d.to_bytes(32, "big")), tlv(0xA1, bit_string(_point_bytes(q))))
    return seq(integer(0), seq(oid(OID_EC_PUBLIC_KEY), oid(OID_P256)), octet_string(ec_key))


def self_signed(common_name: str, valid_days: int) -> tuple[bytes, bytes]:
    """(certificate PEM, key PEM): a new key, valid from a day ago (clocks differ) for ``valid_days``."""
    d = 1 + secrets.randbelow(N - 1)
    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    serial = 1 + secrets.randbits(159)  # positive, at most 20 bytes (RFC 5280 4.1.2.2)
    der = certificate_der(d, common_name, now - datetime.timedelta(days=1), now + datetime.timedelta(days=valid_days),
                          serial)
    return _pem("CERTIFICATE", der), _pem("PRIVATE KEY", private_key_der(d))
