"""Every locked package has a binary wheel for every target the release ships (issue 46), or the
exceptions file says why it is built from source there.

    python tools/wheel_check.py                     ask the registry (PyPI's JSON simple API)
    python tools/wheel_check.py --require-registry  the same, and fail when it cannot be reached (CI)
    python tools/wheel_check.py --recorded tests/data/wheel_registry.json   a recorded answer
    python tools/wheel_check.py --record FILE       write the registry's answer for the locked versions
    python tools/wheel_check.py --markdown          the table for docs/release.md

For each lock file (requirements/*.txt), each package in it and each target (TARGETS: Windows
x64, macOS arm64 and x86_64 at the macOS version the bundle promises, Linux x86_64 at the glibc
the Linux build supports), it looks for a wheel that CPython 3.11 on that target installs AND
whose SHA-256 is one of the lock's hashes (what ``pip install --require-hashes`` accepts). A
package whose marker leaves it out of a target is "not installed" there. A package without such
a wheel fails the check unless requirements/wheel-exceptions.conf names it and the target with
the reason it is built there. Offline, the check says it was skipped (exit 0), or fails with
``--require-registry``.

Only the standard library and ``packaging`` (in every lock, so in every .venv)."""
from __future__ import annotations

import argparse
import json
import re
import sys
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

from packaging.markers import Marker
from packaging.tags import Tag
from packaging.utils import canonicalize_name, parse_wheel_filename

ROOT = Path(__file__).resolve().parent.parent
LOCKS = [ROOT / "requirements" / f"{kind}.txt" for kind in ("pip", "runtime", "test", "build")]  # bootstrap.py
EXCEPTIONS = ROOT / "requirements" / "wheel-exceptions.conf"
INDEX = "https://pypi.org/simple/"
PYTHON = (3, 11)  # the Python the release builds with (.github/workflows, scripts/bootstrap.py's lock)
SPEC = ROOT / "build_exe.spec"


def macos_minimum(spec: Path = SPEC) -> tuple[int, int]:
    """The macOS version the bundle promises: build_exe.spec's MACOS_MINIMUM (its Info.plist)."""
    m = re.search(r'^MACOS_MINIMUM = "(\d+)\.(\d+)"', spec.read_text(encoding="utf-8"), re.M)
    if not m:
        raise ValueError(f"{spec.name} names no MACOS_MINIMUM")
    return int(m.group(1)), int(m.group(2))


MACOS_MIN = macos_minimum()
GLIBC_MIN = (2, 28)  # the Linux build's glibc: manylinux_2_28 (branch linux46's choice)
LEGACY_MANYLINUX = {"manylinux1": (2, 5), "manylinux2010": (2, 12), "manylinux2014": (2, 17)}


@dataclass(frozen=True)
class Target:
    name: str
    markers: dict  # the PEP 508 marker values on that system
    platform_ok: Callable[[str], bool]  # a wheel's platform tag installs there


def _macos(archs: tuple[str, ...]) -> Callable[[str], bool]:
    def ok(platform: str) -> bool:
        m = re.fullmatch(r"macosx_(\d+)_(\d+)_(\w+)", platform)
        return bool(m) and m.group(3) in archs and (int(m.group(1)), int(m.group(2))) <= MACOS_MIN
    return ok


def _linux_x86_64(platform: str) -> bool:
    m = re.fullmatch(r"manylinux_(\d+)_(\d+)_x86_64", platform)
    if m:
        return (int(m.group(1)), int(m.group(2))) <= GLIBC_MIN
    m = re.fullmatch(r"(manylinux1|manylinux2010|manylinux2014)_x86_64", platform)
    return bool(m) and LEGACY_MANYLINUX[m.group(1)] <= GLIBC_MIN


def _base_markers(**kw: str) -> dict:
    env = {"implementation_name": "cpython", "platform_python_implementation": "CPython",
           "python_version": "%d.%d" % PYTHON, "python_full_version": "%d.%d.9" % PYTHON,
           "implementation_version": "%d.%d.9" % PYTHON, "platform_release": "", "platform_version": ""}
    env.update(kw)
    return env


TARGETS = (
    Target("windows-x64", _base_markers(sys_platform="win32", os_name="nt", platform_system="Windows",
                                        platform_machine="AMD64"), lambda p: p == "win_amd64"),
    Target("macos-arm64", _base_markers(sys_platform="darwin", os_name="posix", platform_system="Darwin",
                                        platform_machine="arm64"), _macos(("arm64", "universal2"))),
    Target("macos-x86_64", _base_markers(sys_platform="darwin", os_name="posix", platform_system="Darwin",
                                         platform_machine="x86_64"), _macos(("x86_64", "universal2", "intel"))),
    Target("linux-x86_64", _base_markers(sys_platform="linux", os_name="posix", platform_system="Linux",
                                         platform_machine="x86_64"), _linux_x86_64),
)


def python_ok(tag: Tag) -> bool:
    """CPython 3.11 installs a wheel with this interpreter and ABI tag."""
    m = re.fullmatch(r"(cp|py)(\d)(\d*)", tag.interpreter)
    if not m or m.group(2) != "3":
        return False
    minor = int(m.group(3)) if m.group(3) else None
    if tag.abi == "none":  # pure Python, or a C extension without Python's ABI
        return minor is None or minor <= PYTHON[1]
    if tag.abi == "abi3":  # the stable ABI of that minor version and later
        return m.group(1) == "cp" and minor is not None and minor <= PYTHON[1]
    return tag.interpreter == "cp%d%d" % PYTHON and tag.abi == "cp%d%d" % PYTHON


# ---------------------------------------------------------------- the locks

@dataclass(frozen=True)
class Locked:
    name: str
    version: str
    marker: Optional[Marker]
    hashes: frozenset[str]


def read_lock(path: Path) -> list[Locked]:
    """The pinned packages of a ``uv pip compile --generate-hashes`` file."""
    text = re.sub(r"\\\n", " ", path.read_text(encoding="utf-8"))
    out = []
    for line in text.splitlines():
        line = line.split(" #", 1)[0].strip()
        if not line or line.startswith(("#", "-")):
            continue
        m = re.match(r"([A-Za-z0-9._-]+)==([^\s;]+)\s*(?:;\s*(.*?))?\s*((?:--hash=sha256:[0-9a-f]{64}\s*)*)$", line)
        if not m:
            raise ValueError(f"{path.name}: cannot read the line {line[:80]!r}")
        out.append(Locked(str(canonicalize_name(m.group(1))), m.group(2), Marker(m.group(3)) if m.group(3) else None,
                          frozenset(re.findall(r"sha256:([0-9a-f]{64})", m.group(4)))))
    return out


def read_exceptions(path: Path = EXCEPTIONS) -> dict[tuple[str, str], str]:
    """(package, target) -> why it is built from source there. Lines: ``name target: reason``."""
    out: dict[tuple[str, str], str] = {}
    if not path.exists():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            m = re.fullmatch(r"(\S+)\s+(\S+):\s*(\S.*)", line)
            if not m or m.group(2) not in {t.name for t in TARGETS}:
                raise ValueError(f"{path.name}: cannot read {line!r} (expected: name target: reason)")
            out[(str(canonicalize_name(m.group(1))), m.group(2))] = m.group(3)
    return out


# ---------------------------------------------------------------- the registry

class Offline(Exception):
    pass


def fetch_files(name: str, index: str = INDEX, timeout: float = 30.0) -> list[dict]:
    """The files the registry holds for a package (PEP 691: name and hashes of each)."""
    req = urllib.request.Request(index.rstrip("/") + f"/{name}/",
                                 headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            data = json.load(r)
    except (urllib.error.URLError, OSError, ValueError) as e:
        raise Offline(f"{index}: {getattr(e, 'reason', None) or e}") from None
    return [{"filename": f["filename"], "sha256": f.get("hashes", {}).get("sha256", "")} for f in data["files"]]


def judge(pkg: Locked, target: Target, files: list[dict], exceptions: dict) -> tuple[bool, str]:
    """(fine, what to show) for one package on one target."""
    if pkg.marker is not None and not pkg.marker.evaluate(target.markers):
        return True, "not installed"
    wheels, unhashed = [], []
    for f in files:
        if not f["filename"].endswith(".whl"):
            continue
        try:
            name, version, _, tags = parse_wheel_filename(f["filename"])
        except ValueError:
            continue
        if name != pkg.name or str(version) != pkg.version:
            continue
        if any(python_ok(t) and (t.platform == "any" or target.platform_ok(t.platform)) for t in tags):
            (wheels if f["sha256"] in pkg.hashes else unhashed).append(f["filename"])
    if wheels:
        kind = "any" if all(w.endswith("-none-any.whl") for w in wheels) else "binary"
        return True, kind
    why = exceptions.get((pkg.name, target.name))
    if why:
        return True, f"source ({why})"
    if unhashed:
        return False, f"MISSING: wheel not in the lock's hashes ({unhashed[0]})"
    return False, "MISSING: no wheel"


def check(registry: dict[str, list[dict]], locks=LOCKS, exceptions=None) -> tuple[list[tuple], list[str]]:
    """(rows, problems): a row is (package, version, locks, {target: shown}) for every package."""
    exceptions = read_exceptions() if exceptions is None else exceptions
    merged: dict[tuple[str, str], tuple[Locked, list[str]]] = {}
    for path in locks:
        for pkg in read_lock(path):
            merged.setdefault((pkg.name, pkg.version), (pkg, []))[1].append(path.stem)
    rows, problems = [], []
    for (name, version), (pkg, where) in sorted(merged.items()):
        shown = {}
        for target in TARGETS:
            fine, text = judge(pkg, target, registry.get(name, []), exceptions)
            shown[target.name] = text
            if not fine:
                problems.append(f"{name}=={version} ({', '.join(where)}) on {target.name}: {text}")
        rows.append((name, version, where, shown))
    return rows, problems


def table(rows, markdown: bool) -> str:
    heads = ["package", "locks"] + [t.name for t in TARGETS]
    body = [[f"{n}=={v}", ",".join(w)] + [s[t.name] for t in TARGETS] for n, v, w, s in rows]
    if markdown:
        return "\n".join(["| " + " | ".join(heads) + " |", "|" + "---|" * len(heads)]
                         + ["| " + " | ".join(r) + " |" for r in body])
    widths = [max(len(r[i]) for r in [heads] + body) for i in range(len(heads))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in [heads] + body)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--recorded", help="a recorded registry answer (JSON: package -> files) instead of asking")
    ap.add_argument("--record", help="write the registry's answer for the locked versions to this file")
    ap.add_argument("--index", default=INDEX, help="a PEP 691 simple index (default: PyPI)")
    ap.add_argument("--require-registry", action="store_true", help="fail when the registry cannot be reached")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    args = ap.parse_args(argv)
    names = sorted({(p.name, p.version) for lock in LOCKS for p in read_lock(lock)})
    if args.recorded:
        registry = json.loads(Path(args.recorded).read_text(encoding="utf-8"))
        source = f"the recorded answer {args.recorded}"
    else:
        registry = {}
        try:
            for name, version in names:
                files = fetch_files(name, args.index)
                registry[name] = [f for f in files if _is_version(f["filename"], name, version)]
        except Offline as e:
            print(f"wheel check skipped: the registry cannot be reached ({e})", file=sys.stderr)
            return 2 if args.require_registry else 0
        source = args.index
        if args.record:
            Path(args.record).write_text(json.dumps(registry, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    rows, problems = check(registry)
    print(table(rows, args.markdown))
    print(f"\n{len(rows)} locked packages x {len(TARGETS)} targets (CPython {PYTHON[0]}.{PYTHON[1]}, macOS "
          f"{MACOS_MIN[0]}.{MACOS_MIN[1]}, glibc {GLIBC_MIN[0]}.{GLIBC_MIN[1]}), from {source}: "
          + ("every one installs from a wheel or a named exception" if not problems else f"{len(problems)} problems"))
    for p in problems:
        print("  " + p)
    return 1 if problems else 0


def _is_version(filename: str, name: str, version: str) -> bool:
    """The file is of that release (a wheel or an sdist): keeps a recorded answer small."""
    stem = re.sub(r"[-_.]+", "_", filename.lower())
    return stem.startswith(re.sub(r"[-_.]+", "_", f"{name}-{version}-".lower())) or \
        stem.startswith(re.sub(r"[-_.]+", "_", f"{name}-{version}.tar".lower()))


if __name__ == "__main__":
    sys.exit(main())
