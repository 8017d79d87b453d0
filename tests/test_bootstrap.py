"""scripts/bootstrap.py, the set-up behind scripts/play, scripts/test and their PowerShell twins
(issue 41): the venv's python on Windows and elsewhere, installs from the hash-pinned lock files,
re-installs only when a lock changes, the headless test run; and the lock files themselves."""
import importlib.util
import os
import re
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def boot():
    spec = importlib.util.spec_from_file_location("gonzaga_bootstrap", ROOT / "scripts" / "bootstrap.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_venv_python_is_in_scripts_on_windows_and_in_bin_elsewhere(boot, tmp_path):
    venv = str(tmp_path / ".venv")
    assert boot.venv_python(venv, os_name="nt") == os.path.join(venv, "Scripts", "python.exe")
    assert boot.venv_python(venv, os_name="posix") == os.path.join(venv, "bin", "python")


def test_windows_set_up_installs_with_the_scripts_python(boot, tmp_path, monkeypatch):
    """On Windows (os.name faked) the first run creates the venv, then installs with
    .venv\\Scripts\\python.exe from the lock, checked against its hashes."""
    monkeypatch.setattr(boot.os, "name", "nt")
    monkeypatch.setattr(boot.sys, "platform", "win32")
    venv = tmp_path / ".venv"
    ran = []

    def check_call(cmd, **kw):
        ran.append(cmd)
        if cmd[1:3] == ["-m", "venv"]:  # what python -m venv makes on Windows
            (venv / "Scripts").mkdir(parents=True, exist_ok=True)
            (venv / "Scripts" / "python.exe").write_bytes(b"")
    monkeypatch.setattr(boot.subprocess, "check_call", check_call)
    try:
        py = boot.ensure("test", str(venv))
        first = list(ran)
        ran.clear()
        again = boot.ensure("test", str(venv)), list(ran)
        ran.clear()
        served = boot.ensure("runtime", str(venv)), list(ran)  # the test set-up serves play too
    finally:
        monkeypatch.undo()  # os.name back before pytest reports anything (it makes paths)
    ran = first
    assert py == str(venv / "Scripts" / "python.exe")
    assert ran[0] == [sys.executable, "-m", "venv", str(venv)]
    assert ran[1][:4] == [py, "-m", "pip", "install"]
    assert ran[1][-3:] == ["--require-hashes", "-r", os.path.join(boot.REQ, "test.txt")]
    assert ran[2][0] == py and "--no-deps" in ran[2] and "--no-build-isolation" in ran[2]
    assert len(ran) == 3
    assert again == (py, []) and served == (py, [])  # current: nothing runs again


def test_a_changed_lock_file_installs_again(boot, tmp_path, monkeypatch):
    venv = tmp_path / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_bytes(b"")
    req = tmp_path / "requirements"
    req.mkdir()
    for kind in boot.KINDS:
        (req / f"{kind}.txt").write_text(f"# {kind}\n")
    monkeypatch.setattr(boot, "REQ", str(req))
    monkeypatch.setattr(boot.os, "name", "posix")
    ran = []
    monkeypatch.setattr(boot.subprocess, "check_call", lambda cmd, **kw: ran.append(cmd))
    boot.ensure("runtime", str(venv))
    assert len(ran) == 2 and not boot.is_current("test", str(venv))
    ran.clear()
    boot.ensure("runtime", str(venv))
    assert ran == []
    (req / "runtime.txt").write_text("# runtime, refreshed\n")
    boot.ensure("runtime", str(venv))
    assert len(ran) == 2


def test_the_tests_run_headless_and_play_runs_the_game(boot, monkeypatch):
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    cmd, env = boot.command("test", ["-x"], "PY")
    assert cmd == ["PY", "-m", "pytest", "-x"] and env["SDL_VIDEODRIVER"] == "dummy"
    assert env["SDL_AUDIODRIVER"] in ("dummy", os.environ.get("SDL_AUDIODRIVER"))
    assert boot.command("play", ["--demo"], "PY") == (["PY", "-m", "gonzaga", "--demo"], None)
    build, _ = boot.command("build", [], "PY")
    assert build[:3] == ["PY", "-m", "PyInstaller"] and build[-1].endswith("build_exe.spec")


def test_an_old_python_gets_one_clear_line(boot, capsys, monkeypatch):
    assert boot.check_python((3, 11, 0)) is None
    msg = boot.check_python((3, 9, 2))
    assert "3.11 or newer" in msg and "3.9.2" in msg
    monkeypatch.setattr(boot, "check_python", lambda: msg)
    assert boot.main(["play"]) == 2
    assert capsys.readouterr().err.strip() == msg
    assert boot.main(["bogus"]) == 2


def test_every_script_goes_through_the_bootstrap():
    for name, action in (("play", "play"), ("test", "test")):
        sh = (ROOT / "scripts" / name).read_text()
        assert f"scripts/bootstrap.py {action} \"$@\"" in sh
        ps = (ROOT / "scripts" / f"{name}.ps1").read_text()
        assert ps.count(f"$bootstrap {action} @args") == 3 and "exit $LASTEXITCODE" in ps
    assert "exec scripts/test" in (ROOT / ".ci" / "run").read_text()


def _locked(path: Path) -> dict:
    """name -> (version, marker, hash count) of a lock file."""
    out, current = {}, None
    for line in path.read_text().splitlines():
        m = re.match(r"^([A-Za-z0-9_.-]+)==([^ ;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$", line)
        if m:
            current = m.group(1).lower()
            out[current] = [m.group(2), (m.group(3) or "").strip(), 0]
        elif line.strip().startswith("--hash=sha256:"):
            out[current][2] += 1
        elif line.strip() and not line.lstrip().startswith("#"):
            raise AssertionError(f"{path.name}: unexpected line {line!r}")
    return out


def _name(req: str) -> str:
    return re.match(r"[A-Za-z0-9_.-]+", req).group().lower()


@pytest.mark.parametrize("kind,extra", [("runtime", None), ("test", "dev"), ("build", "package")])
def test_lock_files_pin_every_dependency_with_hashes(kind, extra):
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = [_name(r) for r in meta["dependencies"] + (meta["optional-dependencies"][extra] if extra else [])]
    locked = _locked(ROOT / "requirements" / f"{kind}.txt")
    for name in wanted + ["setuptools", "wheel"]:
        assert name in locked, f"{name} is not in requirements/{kind}.txt: run scripts/bootstrap.py lock"
    assert all(n > 0 for _v, _m, n in locked.values())
    # pygame-ce and pydantic-core have wheels per platform: the lock holds the hashes of all of them
    assert locked["pygame-ce"][2] > 20 and locked["pydantic-core"][2] > 20


def test_build_lock_covers_windows_and_macos():
    locked = _locked(ROOT / "requirements" / "build.txt")
    assert locked["pefile"][1] == "sys_platform == 'win32'"
    assert locked["macholib"][1] == "sys_platform == 'darwin'"
