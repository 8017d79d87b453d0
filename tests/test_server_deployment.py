"""Issue 39, a dedicated server (packaging/server/): the systemd unit's and the container recipe's
command lines are ``gonzaga serve`` command lines its own parser accepts, and run as written (with
a test's port and folder) they serve ``wss://`` and stop cleanly on SIGTERM, as systemd and
``podman stop`` stop them. Building or running the container itself needs Docker or Podman, which
this test does not assume.
"""
from __future__ import annotations

import configparser
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from websockets.sync.client import connect

from gonzaga.net import protocol as P
from gonzaga.net.invite import split_pin
from gonzaga.net.serve import _UsageError, parser
from gonzaga.net.tls import client_context

ROOT = Path(__file__).resolve().parents[1]
SERVER = ROOT / "packaging" / "server"


def unit() -> configparser.ConfigParser:
    c = configparser.ConfigParser(strict=False, interpolation=None, comment_prefixes=("#", ";"))
    c.optionxform = str
    c.read(SERVER / "gonzaga-server.service", encoding="utf-8")
    return c


def container_command() -> list[str]:
    text = (SERVER / "Containerfile").read_text(encoding="utf-8")
    entry = json.loads(re.search(r"^ENTRYPOINT (\[.*\])$", text, re.M)[1])
    cmd = json.loads(re.search(r"^CMD (\[.*\])$", text, re.M)[1])
    return entry + cmd


def serve_args(command: list[str]) -> list[str]:
    assert Path(command[0]).name == "gonzaga" and command[1] == "serve", command
    return command[2:]


def with_test_place(args: list[str], data: Path) -> list[str]:
    """The same command on a free loopback port and a test folder."""
    out, i = [], 0
    while i < len(args):
        if args[i] in ("--host", "--port", "--data"):
            i += 2
            continue
        out.append(args[i])
        i += 1
    return out + ["--host", "127.0.0.1", "--port", "0", "--data", str(data)]


def test_the_unit_runs_gonzaga_serve_with_arguments_it_accepts():
    c = unit()
    svc = c["Service"]
    args = serve_args(shlex.split(svc["ExecStart"]))
    a = parser().parse_args(args)
    assert (a.host, a.port, a.data) == ("0.0.0.0", 7373, "/var/lib/gonzaga")
    assert not a.no_tls and not a.test_seeds and not a.no_address_limits  # encrypted, limits on
    assert svc["KillSignal"] == "SIGTERM" and int(svc["TimeoutStopSec"]) >= 5
    assert svc["StateDirectory"] == "gonzaga" and svc["User"] == "gonzaga"
    assert "1" in svc["RestartPreventExitStatus"].split()  # a damaged database is read, not looped on
    with pytest.raises(_UsageError):  # the parser is a real check: a wrong flag fails it
        parser().parse_args(args + ["--tls-off"])


def test_the_container_runs_gonzaga_serve_with_arguments_it_accepts():
    a = parser().parse_args(serve_args(container_command()))
    assert (a.host, a.port, a.data) == ("0.0.0.0", 7373, "/data") and not a.no_tls and not a.test_seeds
    text = (SERVER / "Containerfile").read_text(encoding="utf-8")
    assert "STOPSIGNAL SIGTERM" in text and "EXPOSE 7373" in text and "--require-hashes" in text
    assert re.search(r"^USER gonzaga$", text, re.M)  # not root


@pytest.mark.skipif(sys.platform == "win32", reason="signals a process")
@pytest.mark.parametrize("which", ["unit", "container"])
def test_the_deployed_command_serves_wss_and_stops_on_sigterm(which, tmp_path):
    command = shlex.split(unit()["Service"]["ExecStart"]) if which == "unit" else container_command()
    args = with_test_place(serve_args(command), tmp_path / "data")
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    p = subprocess.Popen([sys.executable, "-m", "gonzaga", "serve", *args], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = p.stdout.readline().strip()
        m = re.fullmatch(r"serving on (wss://127\.0\.0\.1:\d+#[a-z2-7]{52})", line)
        assert m, (line, p.stderr.read() if p.poll() is not None else "")
        url, pin = split_pin(m[1])
        with connect(url, open_timeout=5, max_size=P.MAX_SERVER_BYTES, ssl=client_context(pin)) as ws:
            ws.send(P.Ping().model_dump_json())
            assert json.loads(ws.recv(timeout=5))["type"] == "pong"
        t0 = time.monotonic()
        p.send_signal(signal.SIGTERM)
        assert p.wait(timeout=10) == 0 and time.monotonic() - t0 < 5
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
