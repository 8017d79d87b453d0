"""The suite is portable by construction (issue 46): collected as on Windows, here on Linux, it
imports and collects every test module without touching a POSIX-only name. The pretence is
tests/portable_windows.py (a pytest plugin); the slip it exists for: a parametrize over
``signal.SIGKILL`` in a module whose Linux-only skip comes too late to help."""
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
# on Windows itself the suite is collected (and run) for real
pretend = pytest.mark.skipif(os.name == "nt", reason="this is Windows: the whole suite is collected here for real")


def _collect_as_windows(*paths: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYTHONPATH=os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")])))
    return subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "portable_windows",
                           "-p", "no:cacheprovider", *paths], capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=600)


@pretend
def test_the_whole_suite_collects_as_on_windows():
    p = _collect_as_windows()
    assert p.returncode == 0, (p.stdout + p.stderr)[-4000:]
    # every test module was collected, none silently left out
    modules = {line.split(":")[0] for line in p.stdout.splitlines() if line.startswith("tests/test_")}
    assert modules == {f"tests/{f.name}" for f in TESTS.glob("test_*.py")}, modules


@pretend
def test_the_pretence_catches_a_posix_only_name(tmp_path):
    """The check can fail: a module that reads signal.SIGKILL while it is collected is an error."""
    slip = tmp_path / "test_slip.py"
    slip.write_text("import os, signal, sys\n"
                    "import pytest\n\n"
                    "@pytest.mark.parametrize('sig', [signal.SIGKILL])\n"
                    "def test_kill(sig):\n    pass\n\n"
                    "def test_looks_like_windows():\n"
                    "    assert sys.platform == 'win32' and os.name == 'nt' and not hasattr(os, 'mkfifo')\n")
    p = _collect_as_windows(str(slip))
    assert p.returncode != 0 and "SIGKILL" in p.stdout, p.stdout[-2000:]
    slip.write_text(slip.read_text().replace("[signal.SIGKILL]", "['SIGKILL']"))
    env = dict(os.environ, PYTHONPATH=str(TESTS))
    p = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "portable_windows", "-p", "no:cacheprovider",
                        str(slip)], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert p.returncode == 0 and "2 passed" in p.stdout, p.stdout[-2000:]


# the Windows stop, played on Linux: Ctrl-Break arrives as SIGBREAK, which Linux lacks, so SIGUSR1
# stands in for it; add_signal_handler fails as on Windows' event loop, so only SIGBREAK's handler
# can stop the server
WINDOWS_SERVE = """
import asyncio, signal, sys
signal.SIGBREAK = signal.SIGUSR1
def refuse(self, *a, **k):
    raise NotImplementedError
asyncio.AbstractEventLoop.add_signal_handler = refuse
asyncio.unix_events._UnixSelectorEventLoop.add_signal_handler = refuse
from gonzaga.net.serve import main
sys.exit(main(sys.argv[1:]))
"""


def test_ctrl_break_stops_the_server_cleanly_as_on_windows(tmp_path):
    if not hasattr(signal, "SIGUSR1"):
        pytest.skip("the stand-in for Ctrl-Break is SIGUSR1 (POSIX)")
    proc = subprocess.Popen([sys.executable, "-c", WINDOWS_SERVE, "--port", "0", "--no-tls", "--data",
                             str(tmp_path / "srv")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT)
    try:
        line = proc.stdout.readline()
        assert line.startswith("serving on ws://"), (line, proc.stderr.read() if proc.poll() is not None else "")
        proc.send_signal(signal.SIGUSR1)
        assert proc.wait(timeout=30) == 0, proc.stderr.read()
        assert "Traceback" not in proc.stderr.read()
        assert "stopped" in (tmp_path / "srv" / "gonzaga-server.log").read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
