"""Write python3-dependencies.json, the Flatpak module that installs the game's locked dependencies.

    python packaging/flatpak/flatpak_sources.py [--wheels DIR]

Downloads (or takes from ``--wheels``) the wheels that requirements/runtime.txt pins, for the
Python of the Flatpak runtime (CPython 3.12 in org.freedesktop.Platform 24.08) on x86_64 Linux, and
lists each as a flatpak-builder ``file`` source with its PyPI address and SHA-256. Every file must
be one the lock names by hash; run it after refreshing the locks (tests/test_appimage.py fails
when the module and the lock disagree).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "requirements" / "runtime.txt"
OUT = Path(__file__).resolve().parent / "python3-dependencies.json"
PYTHON = "3.12"  # org.freedesktop.Platform 24.08
PLATFORMS = ("manylinux_2_28_x86_64", "manylinux_2_17_x86_64", "manylinux2014_x86_64", "manylinux_2_5_x86_64",
             "manylinux1_x86_64")
SKIP = {"setuptools", "wheel", "packaging"}  # the game's own build needs only setuptools and wheel: kept below
BUILD_ONLY = {"setuptools", "wheel"}


def locked() -> dict[str, tuple[str, set[str]]]:
    """{name: (version, {sha256, ...})} of the runtime lock (PyPy-only lines are kept: their markers say)."""
    pins: dict[str, tuple[str, set[str]]] = {}
    name = None
    for line in LOCK.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^([A-Za-z0-9._-]+)==([^\s;\\]+)", line)
        if m:
            name = m.group(1).lower()
            if re.search(r"sys_platform == '(win32|darwin)'", line):  # never installed on Linux (cytolk)
                name = None
                continue
            pins[name] = (m.group(2), set())
        for h in re.findall(r"--hash=sha256:([0-9a-f]{64})", line):
            if name:
                pins[name][1].add(h)
    return pins


def pypi_url(path: Path) -> str:
    """PyPI's address of a file: its BLAKE2b-256 digest, split 2/2/rest, then the file name."""
    b = hashlib.blake2b(path.read_bytes(), digest_size=32).hexdigest()
    return f"https://files.pythonhosted.org/packages/{b[:2]}/{b[2:4]}/{b[4:]}/{path.name}"


def download(pins: dict, into: Path) -> None:
    reqs = [f"{n}=={v}" for n, (v, _) in pins.items() if n not in SKIP or n in BUILD_ONLY]
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-d", str(into),
           "--python-version", PYTHON, "--implementation", "cp", "--abi", "cp" + PYTHON.replace(".", ""),
           "--abi", "abi3", "--abi", "none"] + [a for p in PLATFORMS for a in ("--platform", p)] + reqs
    subprocess.run(cmd, check=True)


def module(wheels: Path, pins: dict) -> dict:
    sources, names = [], []
    by_hash = {h: n for n, (_, hashes) in pins.items() for h in hashes}
    for whl in sorted(wheels.glob("*.whl")):
        digest = hashlib.sha256(whl.read_bytes()).hexdigest()
        if digest not in by_hash:
            raise SystemExit(f"{whl.name}: its SHA-256 is not in {LOCK.name}")
        names.append(by_hash[digest])
        source = {"type": "file", "url": pypi_url(whl), "sha256": digest}
        if not whl.name.endswith("-none-any.whl"):
            source["only-arches"] = ["x86_64"]
        sources.append(source)
    return {
        "name": "python3-dependencies",
        "buildsystem": "simple",
        "build-commands": [
            "pip3 install --verbose --exists-action=i --no-index --find-links=\"file://${PWD}\" "
            "--prefix=${FLATPAK_DEST} --no-build-isolation " + " ".join(sorted(names))],
        "sources": sources,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--wheels", type=Path, help="a folder that already holds the wheels")
    args = ap.parse_args(argv)
    pins = locked()
    with tempfile.TemporaryDirectory() as tmp:
        wheels = args.wheels or Path(tmp)
        if args.wheels is None:
            download(pins, wheels)
        OUT.write_text(json.dumps(module(wheels, pins), indent=2) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
