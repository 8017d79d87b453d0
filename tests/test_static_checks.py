"""The static checks, run with the suite so that CI runs them (issue 38): ``ruff check .`` (the
lint, ``[tool.ruff]`` in pyproject.toml) and ``mypy`` (the type check, ``[tool.mypy]``: strict
over the rules, the table, the words and the wire protocol). Each runs as its own process from
the repository's root, with the configuration in pyproject.toml; a finding fails the test and the
tool's own output is the failure message. Both tools come from the test lock
(requirements/test.txt)."""
import importlib.util
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run_tool(module, *args):
    """Run ``python -m <module> <args>`` from the root; (exit code, what it printed)."""
    if importlib.util.find_spec(module) is None:
        pytest.fail(f"{module} is not installed: it is a test tool (the dev extra); "
                    f"set up with `python3 scripts/bootstrap.py setup test`")
    env = dict(os.environ)
    env.pop("MYPYPATH", None)  # only the configuration in pyproject.toml decides what is checked
    done = subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    return done.returncode, (done.stdout + done.stderr).strip()


def test_ruff_finds_nothing():
    code, out = run_tool("ruff", "check", "--no-fix", ".")
    assert code == 0, "ruff check . found problems:\n" + out


def test_mypy_finds_nothing():
    code, out = run_tool("mypy")
    assert code == 0, "mypy found problems (strict modules: [tool.mypy] in pyproject.toml):\n" + out


def test_every_package_data_file_pyproject_declares_exists():
    """pyproject.toml's package-data globs each match a file: a glob that matches nothing ships
    nothing, silently (py.typed was declared for a while before it existed)."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    declared = data["tool"]["setuptools"]["package-data"]
    assert "py.typed" in declared["gonzaga"]
    for package, globs in declared.items():
        for pattern in globs:
            assert list((ROOT / package.replace(".", "/")).glob(pattern)), f"{package}: {pattern} matches no file"
