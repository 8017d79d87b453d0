"""scripts/bootstrap.py, the set-up behind scripts/play, scripts/test and their PowerShell and cmd
twins (issues 41 and 46): the venv's python on Windows and elsewhere, pip upgraded and the
packages installed from the hash-pinned lock files, re-installs only when a lock changes, a
half-made .venv made again with a message, the supported Python range, the headless test run;
and the lock files themselves."""
import importlib.util
import os
import re
import subprocess
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
    monkeypatch.setattr(boot, "venv_problem", lambda venv=None: None)  # the fake python.exe cannot run here
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
    assert ran[1][:4] == [py, "-m", "pip", "install"]  # pip itself first, from its lock
    assert ran[1][-3:] == ["--require-hashes", "-r", os.path.join(boot.REQ, "pip.txt")]
    assert ran[2][:4] == [py, "-m", "pip", "install"]
    assert ran[2][-3:] == ["--require-hashes", "-r", os.path.join(boot.REQ, "test.txt")]
    assert ran[3][0] == py and "--no-deps" in ran[3] and "--no-build-isolation" in ran[3]
    assert len(ran) == 4
    assert again == (py, []) and served == (py, [])  # current: nothing runs again


def test_a_changed_lock_file_installs_again(boot, tmp_path, monkeypatch):
    venv = tmp_path / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_bytes(b"")
    req = tmp_path / "requirements"
    req.mkdir()
    for kind in boot.KINDS + ("pip",):
        (req / f"{kind}.txt").write_text(f"# {kind}\n")
    monkeypatch.setattr(boot, "REQ", str(req))
    monkeypatch.setattr(boot.os, "name", "posix")
    monkeypatch.setattr(boot, "venv_problem", lambda venv=None: None)
    ran = []
    monkeypatch.setattr(boot.subprocess, "check_call", lambda cmd, **kw: ran.append(cmd))
    boot.ensure("runtime", str(venv))
    assert len(ran) == 3 and not boot.is_current("test", str(venv))
    ran.clear()
    boot.ensure("runtime", str(venv))
    assert ran == []
    (req / "runtime.txt").write_text("# runtime, refreshed\n")
    boot.ensure("runtime", str(venv))
    assert len(ran) == 3
    ran.clear()
    (req / "pip.txt").write_text("# a newer pip\n")  # pip's lock counts too
    boot.ensure("runtime", str(venv))
    assert len(ran) == 3


def test_the_tests_run_headless_and_play_runs_the_game(boot, monkeypatch):
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    cmd, env = boot.command("test", ["-x"], "PY")
    assert cmd == ["PY", "-m", "pytest", "-n", "auto", "--dist", "loadgroup", "-x"] and env["SDL_VIDEODRIVER"] == "dummy"
    assert env["SDL_AUDIODRIVER"] in ("dummy", os.environ.get("SDL_AUDIODRIVER"))
    assert boot.command("play", ["--demo"], "PY") == (["PY", "-m", "gonzaga", "--demo"], None)
    build, _ = boot.command("build", [], "PY")
    assert build[:3] == ["PY", "-m", "PyInstaller"] and build[-1].endswith("build_exe.spec")


@pytest.mark.parametrize("args", [["-n", "0"], ["-n2"], ["--numprocesses=3"], ["-p", "no:xdist"],
                                  ["tests/test_rules.py::test_one"]])
def test_the_suite_runs_on_every_core_unless_the_caller_chose(boot, args):
    """One worker per core for the whole suite; the caller's own -n, no xdist at all, or one test
    by its id run as asked (workers would only add start-up time to one test)."""
    cmd, _ = boot.command("test", args, "PY")
    assert cmd == ["PY", "-m", "pytest"] + args
    cmd, _ = boot.command("test", ["tests/test_rules.py"], "PY")
    assert cmd[3:7] == ["-n", "auto", "--dist", "loadgroup"]


def test_an_unsupported_python_gets_one_clear_line(boot, capsys, monkeypatch):
    assert boot.SUPPORTED == ((3, 11), (3, 13))
    assert boot.check_python((3, 11, 0)) is None and boot.check_python((3, 13, 9)) is None
    msg = boot.check_python((3, 9, 2))
    assert "Python 3.11 to 3.13" in msg and "3.9.2" in msg and "too old" in msg
    new = boot.check_python((3, 14, 0))
    assert "Python 3.11 to 3.13" in new and "3.14.0" in new and "C compiler" in new
    monkeypatch.setattr(boot, "check_python", lambda: msg)
    monkeypatch.setattr(boot, "find_supported_python", lambda: None)  # no other Python installed
    assert boot.main(["play"]) == 2
    assert capsys.readouterr().err.strip() == msg
    assert boot.main(["bogus"]) == 2


def test_a_supported_python_is_found_newest_first(boot):
    """Windows: ``py -3.13`` before ``py -3.12``..., never plain ``py -3`` (the newest installed,
    maybe 3.14); elsewhere python3.13, python3.12, python3.11."""
    assert boot.python_candidates("nt") == [["py", "-3.13"], ["py", "-3.12"], ["py", "-3.11"]]
    assert boot.python_candidates("posix") == [["python3.13"], ["python3.12"], ["python3.11"]]
    installed = {"py -3.12": (3, 12), "py -3.11": (3, 11)}
    assert boot.find_supported_python("nt", lambda cmd: installed.get(" ".join(cmd))) == ["py", "-3.12"]
    assert boot.find_supported_python("nt", lambda cmd: None) is None
    assert boot.python_version([sys.executable]) == sys.version_info[:2]
    assert boot.python_version(["no-such-python-here"]) is None


def test_an_unsupported_python_hands_over_to_a_supported_one(boot, capsys, monkeypatch):
    monkeypatch.setattr(boot, "check_python", lambda: "too new")
    monkeypatch.setattr(boot, "find_supported_python", lambda: ["python3.12"])
    monkeypatch.delenv("GONZAGA_BOOTSTRAP_HANDED_OVER", raising=False)
    calls = []
    monkeypatch.setattr(boot.subprocess, "call", lambda cmd, env=None: calls.append((cmd, env)) or 7)
    assert boot.main(["play", "--demo"]) == 7
    (cmd, env), = calls
    assert cmd[0] == "python3.12" and cmd[1].endswith("bootstrap.py") and cmd[2:] == ["play", "--demo"]
    assert env["GONZAGA_BOOTSTRAP_HANDED_OVER"] == "1" and "using python3.12" in capsys.readouterr().err
    monkeypatch.setenv("GONZAGA_BOOTSTRAP_HANDED_OVER", "1")  # the other one is unsupported too: no loop
    assert boot.main(["play"]) == 2 and len(calls) == 1


# ---------------------------------------------------------------- a half-made .venv heals (real venvs)

def _heal(boot, venv, monkeypatch, capsys):
    """ensure() on ``venv`` with the installs replaced by a no-op (the healing is what is tested);
    the message it printed."""
    monkeypatch.setattr(boot, "install_commands", lambda py, kind: [[py, "-c", "pass"]])
    py = boot.ensure("runtime", str(venv))
    assert py == boot.venv_python(str(venv)) and boot.venv_problem(str(venv)) is None
    assert boot.is_current("runtime", str(venv))
    return capsys.readouterr().err


def test_a_venv_without_pip_is_made_again(boot, tmp_path, monkeypatch, capsys):
    """What Debian's python3 -m venv leaves when python3-venv is missing: a venv with no pip, on
    which every later run failed with "No module named pip"."""
    venv = tmp_path / ".venv"
    subprocess.check_call([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    assert "no pip" in boot.venv_problem(str(venv))
    err = _heal(boot, venv, monkeypatch, capsys)
    assert "is half-made: it has no pip" in err and "Making it again" in err and "first run" not in err


def test_a_venv_without_its_python_is_made_again(boot, tmp_path, monkeypatch, capsys):
    venv = tmp_path / ".venv"
    (venv / ("Scripts" if os.name == "nt" else "bin")).mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /gone\n")
    assert boot.venv_problem(str(venv)).startswith("it has no ")
    err = _heal(boot, venv, monkeypatch, capsys)
    assert "is half-made: it has no " in err


@pytest.mark.skipif(os.name == "nt", reason="the stand-in python is a shell script")
def test_a_venv_of_an_unsupported_python_is_made_again(boot, tmp_path, monkeypatch, capsys):
    venv = tmp_path / ".venv"
    (venv / "bin").mkdir(parents=True)
    fake = venv / "bin" / "python"
    fake.write_text("#!/bin/sh\necho 3 14\n")  # what a 3.14 answers to the version question
    fake.chmod(0o755)
    assert boot.venv_problem(str(venv)) == "it was made with Python 3.14, outside 3.11 to 3.13"
    fake.write_text("#!/bin/sh\nexit 1\n")
    assert boot.venv_problem(str(venv)).startswith("its python does not start")
    err = _heal(boot, venv, monkeypatch, capsys)
    assert "does not start" in err and "Making it again" in err


def test_a_venv_that_cannot_get_pip_is_removed_with_a_hint(boot, tmp_path, monkeypatch, capsys):
    """python -m venv itself makes no pip (ensurepip missing, as on Debian without python3-venv):
    one clear message with what to install, exit 1, and no half-made venv left behind."""
    venv = tmp_path / ".venv"
    real = subprocess.check_call
    monkeypatch.setattr(boot.subprocess, "check_call",
                        lambda cmd, **kw: real(cmd[:3] + ["--without-pip"] + cmd[3:], **kw) if cmd[1:3] == ["-m", "venv"]
                        else real(cmd, **kw))
    monkeypatch.setattr(boot, "VENV", str(venv))
    monkeypatch.setattr(boot, "check_python", lambda: None)
    assert boot.main(["setup", "runtime"]) == 1
    err = capsys.readouterr().err
    assert "setting up failed: could not make a working" in err and "no pip" in err
    assert ("apt install python3." in err) == sys.platform.startswith("linux")
    assert not venv.exists()


def test_every_script_goes_through_the_bootstrap():
    for name, action in (("play", "play"), ("test", "test")):
        sh = (ROOT / "scripts" / name).read_text()
        assert f"scripts/bootstrap.py {action} \"$@\"" in sh
        ps = (ROOT / "scripts" / f"{name}.ps1").read_text()
        assert ps.count(f"$bootstrap {action} @args") == 3 and "exit $LASTEXITCODE" in ps
        cmd = (ROOT / "scripts" / f"{name}.cmd").read_bytes()
        assert b"\r\n" in cmd and b"\n" not in cmd.replace(b"\r\n", b"")  # cmd.exe wants CRLF
        assert cmd.decode().count(f'"%~dp0bootstrap.py" {action} %*') == 3 and "exit /b" in cmd.decode()
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


def test_pip_is_locked_with_hashes():
    locked = _locked(ROOT / "requirements" / "pip.txt")
    assert list(locked) == ["pip"] and locked["pip"][2] >= 1
    assert tuple(int(x) for x in locked["pip"][0].split(".")[:2]) >= (23, 3)  # the fix for CVE-2023-5752


def test_build_lock_covers_windows_and_macos():
    locked = _locked(ROOT / "requirements" / "build.txt")
    assert locked["pefile"][1] == "sys_platform == 'win32'"
    assert locked["macholib"][1] == "sys_platform == 'darwin'"
