"""tools/audit.py (issue 46): the locked versions asked of OSV for known vulnerabilities; offline
it says the audit was skipped. The advisory below is real: GHSA-mq26-g339-26xf (CVE-2023-5752)
affects pip before 23.3, so the pip that Python 3.11.7 ships (23.2.1) has it, and the locked pip
does not."""
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
try:
    import audit as A
finally:
    sys.path.pop(0)

PIP_ADVISORY = "GHSA-mq26-g339-26xf"


def _lock(tmp_path, *pins):
    p = tmp_path / "lock.txt"
    p.write_text("".join(f"{pin} \\\n    --hash=sha256:{'1' * 64}\n" for pin in pins))
    return p


def test_a_locked_version_with_an_advisory_fails_the_audit(tmp_path, capsys):
    lock = _lock(tmp_path, "pip==23.2.1", "websockets==17.4")
    recorded = tmp_path / "osv.json"
    recorded.write_text(json.dumps({"pip==23.2.1": [PIP_ADVISORY], "websockets==17.4": []}))
    assert A.main(["--recorded", str(recorded), "--locks", str(lock)]) == 1
    out = capsys.readouterr().out
    assert "2 locked versions audited: 1 with known vulnerabilities" in out
    assert f"pip==23.2.1: {PIP_ADVISORY} (https://osv.dev/vulnerability/{PIP_ADVISORY})" in out


def test_the_locks_are_read_whole():
    pins = A.locked_versions()
    assert any(p.startswith("pip==") for p in pins) and any(p.startswith("pygame-ce==") for p in pins)
    assert "pip==23.2.1" not in pins and len(pins) == len(set(pins)) >= 25


class _FakeOSV(BaseHTTPRequestHandler):
    asked: list = []

    def do_POST(self):  # noqa: N802 (the handler's name is http.server's)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        _FakeOSV.asked.append(body)
        results = [{"vulns": [{"id": PIP_ADVISORY, "modified": "2024-01-01T00:00:00Z"}]}
                   if q["package"]["name"] == "pip" and q["version"] == "23.2.1" else {} for q in body["queries"]]
        data = json.dumps({"results": results}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *a):
        pass


def test_osv_is_asked_in_one_batch_of_pypi_packages():
    server = HTTPServer(("127.0.0.1", 0), _FakeOSV)
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    try:
        answer = A.ask_osv(["pip==23.2.1", "pip==26.3"], f"http://127.0.0.1:{server.server_port}/v1/querybatch")
    finally:
        server.shutdown()
        server.server_close()
    assert answer == {"pip==23.2.1": [PIP_ADVISORY], "pip==26.3": []}
    assert _FakeOSV.asked[-1] == {"queries": [{"package": {"name": "pip", "ecosystem": "PyPI"}, "version": "23.2.1"},
                                              {"package": {"name": "pip", "ecosystem": "PyPI"}, "version": "26.3"}]}


@pytest.mark.parametrize("flags, code", [([], 0), (["--require-service"], 2)])
def test_offline_it_says_it_was_skipped(monkeypatch, capsys, tmp_path, flags, code):
    monkeypatch.setattr(A, "OSV", "http://127.0.0.1:9/v1/querybatch")  # nothing listens there
    assert A.main(["--locks", str(_lock(tmp_path, "pip==26.3"))] + flags) == code
    assert capsys.readouterr().err.startswith("audit skipped: the vulnerability database cannot be reached")
