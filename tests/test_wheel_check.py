"""tools/wheel_check.py (issue 46): every locked package installs from a wheel on every target,
checked here against a recorded registry answer (tests/data/wheel_registry.json, written by
``python tools/wheel_check.py --record tests/data/wheel_registry.json``); CI asks the registry
itself. The wheel names below are real ones from PyPI."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RECORDED = ROOT / "tests" / "data" / "wheel_registry.json"
sys.path.insert(0, str(ROOT / "tools"))
try:
    import wheel_check as W
finally:
    sys.path.pop(0)

H1, H2, H3 = "1" * 64, "2" * 64, "3" * 64


def _lock(tmp_path, text):
    p = tmp_path / "lock.txt"
    p.write_text(text)
    return [p]


def _files(*names_hashes):
    return [{"filename": n, "sha256": h} for n, h in names_hashes]


def test_every_locked_package_has_a_wheel_for_every_target_in_the_recorded_answer():
    registry = json.loads(RECORDED.read_text())
    missing = sorted({f"{p.name}=={p.version}" for lock in W.LOCKS for p in W.read_lock(lock)} -
                     {f"{n}=={v}" for n, files in registry.items() for v in
                      {W.parse_wheel_filename(f["filename"])[1].public for f in files
                       if f["filename"].endswith(".whl")}})
    assert not missing, (f"the recorded answer predates the locks: run `python tools/wheel_check.py --record "
                         f"{RECORDED.relative_to(ROOT)}` where the registry can be reached ({missing})")
    rows, problems = W.check(registry)
    assert not problems, "\n".join(problems)
    assert len(rows) >= 25 and all(len(shown) == 4 for *_, shown in rows)
    by_name = {n: shown for n, _, _, shown in rows}
    # the compiled ones, each from a binary wheel everywhere
    for name in ("pygame-ce", "pydantic-core", "websockets", "miniupnpc"):
        assert set(by_name[name].values()) == {"binary"}, (name, by_name[name])
    assert "cryptography" not in by_name  # the certificate is written with the standard library
    assert by_name["pywin32-ctypes"]["linux-x86_64"] == "not installed"


def test_the_promised_macos_is_the_bundles():
    assert W.MACOS_MIN == (13, 0)
    assert '"LSMinimumSystemVersion": MACOS_MINIMUM' in (ROOT / "build_exe.spec").read_text()


def test_cryptography_50_has_no_macos_intel_wheel(tmp_path):
    """What the issue found: cryptography 50 ships macOS wheels for arm64 only."""
    locks = _lock(tmp_path, f"cryptography==50.0.2 \\\n    --hash=sha256:{H1} \\\n    --hash=sha256:{H2}\n")
    registry = {"cryptography": _files(("cryptography-50.0.2-cp311-abi3-macosx_11_0_arm64.whl", H1),
                                       ("cryptography-50.0.2-cp311-abi3-win_amd64.whl", H1),
                                       ("cryptography-50.0.2-cp311-abi3-manylinux_2_28_x86_64.whl", H2),
                                       ("cryptography-50.0.2-cp315-abi3.abi3t-macosx_11_0_x86_64.whl", H2),
                                       ("cryptography-50.0.2.tar.gz", H2))}
    rows, problems = W.check(registry, locks, exceptions={})
    assert problems == ["cryptography==50.0.2 (lock) on macos-x86_64: MISSING: no wheel"]
    # named in the exceptions, with its reason, it passes and the table says why
    rows, problems = W.check(registry, locks, exceptions={("cryptography", "macos-x86_64"): "needs Rust"})
    assert not problems and rows[0][3]["macos-x86_64"] == "source (needs Rust)"


def test_a_macos_wheel_newer_than_the_promise_does_not_count(tmp_path, monkeypatch):
    locks = _lock(tmp_path, f"miniupnpc==2.3.3 \\\n    --hash=sha256:{H1}\n")
    registry = {"miniupnpc": _files(("miniupnpc-2.3.3-cp311-cp311-macosx_13_0_arm64.whl", H1),
                                    ("miniupnpc-2.3.3-cp311-cp311-macosx_13_0_x86_64.whl", H1),
                                    ("miniupnpc-2.3.3-cp311-cp311-win_amd64.whl", H1),
                                    ("miniupnpc-2.3.3-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl", H1))}
    assert not W.check(registry, locks, exceptions={})[1]
    monkeypatch.setattr(W, "MACOS_MIN", (11, 0))  # the old promise
    assert [p.split(" on ")[1] for p in W.check(registry, locks, exceptions={})[1]] == \
        ["macos-arm64: MISSING: no wheel", "macos-x86_64: MISSING: no wheel"]


def test_glibc_abi_markers_and_hashes(tmp_path):
    locks = _lock(tmp_path, f"a==1.0 ; sys_platform == 'win32' \\\n    --hash=sha256:{H1}\n"
                            f"b==2.0 \\\n    --hash=sha256:{H1}\n"
                            f"c==3.0 \\\n    --hash=sha256:{H1}\n")
    registry = {"a": _files(("a-1.0-py3-none-any.whl", H1)),
                "b": _files(("b-2.0-cp311-cp311-manylinux_2_34_x86_64.whl", H1),  # newer glibc than 2.28
                            ("b-2.0-cp312-cp312-win_amd64.whl", H1),  # another Python
                            ("b-2.0-cp39-abi3-macosx_10_9_universal2.whl", H1)),  # the stable ABI: fine
                "c": _files(("c-3.0-py3-none-any.whl", H3))}  # a wheel whose hash the lock lacks
    rows, problems = W.check(registry, locks, exceptions={})
    shown = {n: s for n, _, _, s in rows}
    assert shown["a"] == {"windows-x64": "any", "macos-arm64": "not installed", "macos-x86_64": "not installed",
                          "linux-x86_64": "not installed"}
    assert shown["b"]["linux-x86_64"] == shown["b"]["windows-x64"] == "MISSING: no wheel"
    assert shown["b"]["macos-arm64"] == shown["b"]["macos-x86_64"] == "binary"
    assert shown["c"]["linux-x86_64"].startswith("MISSING: wheel not in the lock's hashes")
    assert len(problems) == 6


def test_offline_it_says_it_was_skipped():
    cmd = [sys.executable, str(ROOT / "tools" / "wheel_check.py"), "--index", "http://127.0.0.1:9/simple/"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and p.stderr.startswith("wheel check skipped: the registry cannot be reached"), p.stderr
    p = subprocess.run(cmd + ["--require-registry"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and "skipped" in p.stderr


def test_the_command_prints_the_table_from_a_recorded_answer():
    p = subprocess.run([sys.executable, str(ROOT / "tools" / "wheel_check.py"), "--recorded", str(RECORDED),
                        "--markdown"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.startswith("| package | locks | windows-x64 | macos-arm64 | macos-x86_64 | linux-x86_64 |")
    assert "every one installs from a wheel or a named exception" in p.stdout


@pytest.mark.parametrize("line", ["pygame-ce 2.5.8", "pygame-ce windows: no compiler"])
def test_a_bad_exceptions_line_is_refused(tmp_path, line):
    f = tmp_path / "ex.conf"
    f.write_text(f"# a comment\n{line}\n")
    with pytest.raises(ValueError, match="expected: name target: reason"):
        W.read_exceptions(f)
