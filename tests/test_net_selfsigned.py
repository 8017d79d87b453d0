"""The host's self-signed certificate, written with the standard library (gonzaga/net/selfsigned.py,
issue 46): the curve arithmetic and the signature against published vectors, the certificate and
key against OpenSSL (Python's ssl module, and the openssl command where it is installed)."""
import datetime
import shutil
import ssl
import subprocess

import pytest

from gonzaga.net import selfsigned as S


def test_point_multiplication_matches_published_vectors():
    # P-256 multiples of G (the NIST point-multiplication test vectors: k = 1, 2, 3, n - 1)
    assert S.multiply(1) == S.G
    assert S.multiply(2) == (0x7CF27B188D034F7E8A52380304B51AC3C08969E277F21B35A60B48FC47669978,
                             0x07775510DB8ED040293D9AC69F7430DBBA7DADE63CE982299E04B79D227873D1)
    assert S.multiply(3) == (0x5ECBE4D1A6330A44C8F7EF951D4BF165E6C6B721EFADA985FB41661BC6E7FD6C,
                             0x8734640C4998FF7E374B06CE1A64A2ECD82AB036384FB83D9A79B127A27D5032)
    assert S.multiply(S.N - 1) == (S.G[0], S.P - S.G[1])
    assert S.multiply(S.N) is None and S.on_curve(S.multiply(123456789))


def test_ecdsa_matches_rfc_6979():
    """RFC 6979, A.2.5: P-256, SHA-256, the message "sample", with the RFC's k."""
    d = 0xC9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721
    k = 0xA6E3C57DD01ABE90086538398355DD4C3B17AA873382B0F24D6129493D8AAD60
    assert S.multiply(d) == (0x60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6,
                             0x7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299)
    assert S.sign(d, b"sample", k) == (0xEFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716,
                                       0xF7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8)


def test_der_pieces():
    assert S.integer(0) == b"\x02\x01\x00" and S.integer(0x80) == b"\x02\x02\x00\x80"
    assert S.oid("1.2.840.10045.3.1.7") == bytes.fromhex("06082a8648ce3d030107")
    assert S.tlv(0x04, b"x" * 200)[:3] == b"\x04\x81\xc8"
    utc = datetime.timezone.utc
    assert S.time_value(datetime.datetime(2049, 12, 31, 23, 59, 59, tzinfo=utc)) == b"\x17\x0d491231235959Z"
    assert S.time_value(datetime.datetime(2050, 1, 1, tzinfo=utc)) == b"\x18\x0f20500101000000Z"


def test_the_certificate_and_key_are_what_openssl_reads(tmp_path):
    cert_pem, key_pem = S.self_signed("Gonzaga", 20 * 365)
    cert, key = tmp_path / "c.pem", tmp_path / "k.pem"
    cert.write_bytes(cert_pem)
    key.write_bytes(key_pem)
    ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER).load_cert_chain(str(cert), str(key))  # the key fits the certificate
    der = ssl.PEM_cert_to_DER_cert(cert_pem.decode())
    assert der.startswith(b"\x30\x82")
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("no openssl command to check the self-signature and the key with")
    p = subprocess.run([openssl, "verify", "-check_ss_sig", "-CAfile", str(cert), str(cert)],
                       capture_output=True, text=True)
    assert p.returncode == 0 and p.stdout.strip().endswith("OK"), p.stdout + p.stderr
    p = subprocess.run([openssl, "ec", "-in", str(key), "-check", "-noout"], capture_output=True, text=True)
    assert p.returncode == 0 and "EC Key valid" in p.stdout + p.stderr, p.stdout + p.stderr  # its point is d*G
    p = subprocess.run([openssl, "x509", "-in", str(cert), "-noout", "-text"], capture_output=True, text=True)
    assert "CN = Gonzaga" in p.stdout and "DNS:localhost, IP Address:127.0.0.1" in p.stdout
    assert "CA:FALSE" in p.stdout and "prime256v1" in p.stdout


def test_a_tampered_certificate_fails_openssls_signature_check(tmp_path):
    """The check above can fail: one flipped bit in the signed part and OpenSSL refuses it."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("no openssl command")
    cert_pem, _ = S.self_signed("Gonzaga", 365)
    der = bytearray(ssl.PEM_cert_to_DER_cert(cert_pem.decode()))
    i = der.index(b"localhost") + 1
    der[i] ^= 0x01  # "localhost" -> "lncalhost" in the signed part: it still parses
    bad = tmp_path / "bad.pem"
    bad.write_text(ssl.DER_cert_to_PEM_cert(bytes(der)))
    p = subprocess.run([openssl, "verify", "-check_ss_sig", "-CAfile", str(bad), str(bad)],
                       capture_output=True, text=True)
    assert p.returncode != 0 and "signature failure" in p.stdout + p.stderr, p.stdout + p.stderr
