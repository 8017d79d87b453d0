"""Third-party notices generated from what a build really holds (issue 46).

    .venv/bin/python tools/notices.py --dist dist/Gonzaga [--out DIR] [--check]

Run it with the Python that built the folder: the distributions installed there say which
package each file and module of the build came from.

Walks the built folder (PyInstaller's output; a macOS ``.app`` too), finds every component in it
and writes ``THIRD_PARTY_NOTICES.md`` and a ``licenses/`` folder with every licence text into
``--out`` (by default the folder the program's data sits in: ``_internal/`` or
``Contents/Resources/``). The components are

- Python distributions: files of the folder listed in an installed distribution's RECORD, modules
  inside the program's archive, and dist-info folders the build carries; their licence texts are
  the licence files of their dist-info;
- everything else (C libraries, fonts, Python itself, the launcher, the game): the table
  ``licenses/components.toml``, matched by file name or module name.

Every binary file (ELF, PE, Mach-O), font and zip archive in the folder, and every module in the
program's archive, must belong to a component, and every component must have a licence text;
otherwise the tool names what is missing and exits 1 (tests/test_notices.py, build_exe.spec).
It prints ``components: N found, M with notice and licence text``.
"""
from __future__ import annotations

import argparse
import fnmatch
import importlib.metadata as md
import re
import shutil
import sys
import sysconfig
import tomllib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "licenses" / "components.toml"
PREAMBLE = ROOT / "licenses" / "preamble.md"
PYTHON_LICENCE_COPY = ROOT / "licenses" / "texts" / "CPython-3.11-LICENSE.txt"
NOTICES_NAME = "THIRD_PARTY_NOTICES.md"
LICENSES_DIR = "licenses"
FONT_SUFFIXES = (".ttf", ".otf", ".ttc", ".woff", ".woff2", ".pfb")
# where a build keeps the files a Python distribution installed (its RECORD paths are relative to these)
CONTENT_ROOTS = ("", "_internal", "Contents/Frameworks", "Contents/Resources")
LICENCE_FILE = re.compile(r"^(licen[cs]e|copying|notice|authors|copyright)", re.IGNORECASE)
TEXT_SOURCE = re.compile(r"^(repo:.+|dist:[A-Za-z0-9._-]+|python:LICENSE\.txt)$")


class TableError(ValueError):
    """The components table is wrong; the message names the file and the field."""


class Entry(BaseModel):
    """One [[component]] of licenses/components.toml."""
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    name: str
    licence: str
    url: str
    texts: tuple[str, ...]
    files: tuple[str, ...] = ()
    modules: tuple[str, ...] = ()
    distribution: str | None = None
    notice: str | None = None
    source: str | None = None

    @field_validator("id")
    @classmethod
    def _id(cls, v: str) -> str:
        if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", v):
            raise ValueError("an id is lower-case letters, digits and '-'")
        return v

    @field_validator("texts")
    @classmethod
    def _texts(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        if not v:
            raise ValueError("a component needs at least one licence text")
        for t in v:
            if not TEXT_SOURCE.match(t):
                raise ValueError(f"{t!r} is not repo:PATH, dist:NAME or python:LICENSE.txt")
        return v


class Table(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    stdlib_component: str
    component: tuple[Entry, ...]


def load_table(path: Path = TABLE) -> Table:
    """Read and validate the table; a mistake raises TableError naming the file and the field."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise TableError(f"{path}: {e}") from e
    try:
        table = Table.model_validate(raw)
    except ValidationError as e:
        first = e.errors()[0]
        loc = list(first["loc"])
        where = ".".join(str(p) for p in loc)
        if len(loc) >= 2 and loc[0] == "component" and isinstance(loc[1], int):
            cid = raw.get("component", [{}])[loc[1]].get("id", "?")
            where = f"component {loc[1] + 1} (id {cid!r}), field {'.'.join(str(p) for p in loc[2:]) or '?'}"
        raise TableError(f"{path}: {where}: {first['msg']}") from e
    ids = [c.id for c in table.component]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise TableError(f"{path}: field id: {', '.join(dupes)} used twice")
    if table.stdlib_component not in ids:
        raise TableError(f"{path}: field stdlib_component: no component {table.stdlib_component!r}")
    for c in table.component:
        for t in c.texts:
            if t.startswith("repo:") and not (ROOT / t[5:]).is_file():
                raise TableError(f"{path}: component {c.id!r}, field texts: {t[5:]} does not exist")
    return table


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


@dataclass
class Dist:
    """An installed (or bundled) Python distribution: what it owns and its licence files."""
    name: str
    version: str
    licence: str
    url: str
    record: set[str]
    top_level: set[str]
    licence_files: list[Path]


def _dist_licence(meta) -> str:
    expr = meta.get("License-Expression")
    if expr:
        return expr
    classifiers = [c.split(" :: ")[-1] for c in meta.get_all("Classifier") or [] if c.startswith("License ::")]
    lic = (meta.get("License") or "").strip()
    if lic and "\n" not in lic and len(lic) < 80:
        return lic
    return ", ".join(classifiers) or "see its licence text"


def read_dist(d: md.Distribution) -> Dist:
    meta = d.metadata
    record = {str(PurePosixPath(str(f))) for f in (d.files or [])}
    top = set()
    for f in record:
        first = f.split("/")[0]
        if first.endswith((".dist-info", ".egg-info", ".data")) or first in ("..", "bin"):
            continue
        top.add(first.split(".")[0] if "/" not in f else first)
    tl = d.read_text("top_level.txt")
    if tl:
        top.update(x.strip() for x in tl.splitlines() if x.strip())
    lic_files = []
    for f in d.files or []:
        parts = PurePosixPath(str(f)).parts
        if parts and parts[0].endswith(".dist-info") and LICENCE_FILE.match(parts[-1]):
            p = Path(str(d.locate_file(f)))
            if p.is_file():
                lic_files.append(p)
    url = meta.get("Home-page") or next((u.split(",", 1)[-1].strip() for u in meta.get_all("Project-URL") or []), "")
    return Dist(meta["Name"], meta["Version"], _dist_licence(meta), url, record, top, sorted(lic_files))


def environment(paths: list[str] | None = None) -> dict[str, Dist]:
    """The distributions installed on ``paths`` (the running Python's by default), by normalised name."""
    found: dict[str, Dist] = {}
    for d in md.distributions(**({"path": paths} if paths is not None else {})):
        name = d.metadata["Name"]
        if name and _norm(name) not in found:
            found[_norm(name)] = read_dist(d)
    return found


def _is_binary(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            head = f.read(4)
    except OSError:
        return False
    return head == b"\x7fELF" or head[:2] == b"MZ" or head in (
        b"\xfe\xed\xfa\xce", b"\xfe\xed\xfa\xcf", b"\xce\xfa\xed\xfe", b"\xcf\xfa\xed\xfe", b"\xca\xfe\xba\xbe")


def _lib_like(rel: str) -> bool:
    """A shared library rather than a Python extension module: its licence is never a distribution's."""
    name = rel.rsplit("/", 1)[-1]
    parents = rel.split("/")[:-1]
    return (any(p.endswith(".libs") or p == ".dylibs" for p in parents) or name.startswith("lib")
            or name.lower().endswith((".dll", ".dylib")) or ".so." in name)


def archive_modules(folder: Path) -> set[str]:
    """Top-level names of the modules inside the program's PyInstaller archive (none when the folder
    has no such archive or PyInstaller is not installed)."""
    try:
        from PyInstaller.archive.readers import CArchiveReader
    except ImportError:
        return set()
    names: set[str] = set()
    for exe in folder.rglob("*"):
        if not (exe.is_file() and _is_binary(exe)) or exe.suffix.lower() in (".so", ".dll", ".pyd", ".dylib"):
            continue
        try:
            reader = CArchiveReader(str(exe))
        except Exception:  # not a PyInstaller executable
            continue
        for name, entry in reader.toc.items():
            if entry[-1] == "z":
                names.update(k.split(".")[0] for k in reader.open_embedded_archive(name).toc)
            elif entry[-1] in ("m", "s"):
                names.add(name.split(".")[0])
    return names


@dataclass
class Component:
    id: str
    name: str
    licence: str
    url: str = ""
    version: str = ""
    notice: str | None = None
    texts: list[tuple[str, Path]] = field(default_factory=list)  # (name in licenses/, source file)
    found_as: list[str] = field(default_factory=list)


@dataclass
class Report:
    components: dict[str, Component]
    problems: list[str]

    @property
    def complete(self) -> list[Component]:
        return [c for c in self.components.values() if c.texts and c.licence]


def _python_licence() -> Path:
    base = Path(sys.base_prefix)
    for p in (base / "LICENSE.txt", Path(sysconfig.get_paths()["stdlib"]) / "LICENSE.txt",
              base / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "LICENSE.txt"):
        if p.is_file():
            return p
    return PYTHON_LICENCE_COPY


def _texts_of(entry: Entry, env: dict[str, Dist], problems: list[str]) -> list[tuple[str, Path]]:
    out = []
    for t in entry.texts:
        if t.startswith("repo:"):
            src = ROOT / t[5:]
            out.append((src.name, src))
        elif t.startswith("python:"):
            out.append(("CPython-LICENSE.txt", _python_licence()))
        else:
            d = env.get(_norm(t[5:]))
            if d is None or not d.licence_files:
                problems.append(f"component {entry.id}: no licence file of distribution {t[5:]} is installed")
                continue
            out += [(f"{entry.id}/{p.name}", p) for p in d.licence_files]
    return out


def scan(folder: Path, table: Table | None = None, env: dict[str, Dist] | None = None) -> Report:
    """Every component of the built ``folder``, and what has no component or no licence text."""
    table = table or load_table()
    if env is None:
        env = environment()
    env = dict(env)
    for info in list(folder.rglob("*.dist-info")):  # distributions the build carries, if not installed here
        if info.is_dir() and (info / "METADATA").is_file():
            d = read_dist(md.PathDistribution(info))
            env.setdefault(_norm(d.name), d)
    by_dist = {e.distribution: e for e in table.component if e.distribution}
    comps: dict[str, Component] = {}
    problems: list[str] = []

    def add_entry(e: Entry, evidence: str, version: str = "") -> None:
        if e.id not in comps:
            comps[e.id] = Component(e.id, e.name, e.licence, e.url, version, e.notice, _texts_of(e, env, problems))
        comps[e.id].found_as.append(evidence)

    def add_dist(d: Dist, evidence: str) -> None:
        entry = by_dist.get(_norm(d.name)) or by_dist.get(d.name)
        if entry is not None:
            add_entry(entry, evidence, d.version)
            c = comps[entry.id]
            if not c.version:
                c.version = d.version
            own = [(f"{entry.id}/{p.name}", p) for p in d.licence_files]
            c.texts += [t for t in own if t not in c.texts]
            return
        cid = _norm(d.name)
        if cid not in comps:
            comps[cid] = Component(cid, d.name, d.licence, d.url, d.version, None,
                                   [(f"{cid}/{p.name}", p) for p in d.licence_files])
            if not d.licence_files:
                problems.append(f"distribution {d.name} {d.version}: its dist-info has no licence file and "
                                f"no entry of {TABLE.name} gives one (field distribution)")
        comps[cid].found_as.append(evidence)

    record_owner = {}
    module_owner = {}
    for d in env.values():
        for r in d.record:
            record_owner.setdefault(r, d)
        for t in d.top_level:
            module_owner.setdefault(t, d)
    stdlib = next(e for e in table.component if e.id == table.stdlib_component)

    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        rel = path.relative_to(folder).as_posix()
        if rel.startswith(LICENSES_DIR + "/") or f"/{LICENSES_DIR}/" in rel:
            continue  # the texts this tool copies in
        name = path.name
        required = _is_binary(path) or name.lower().endswith(FONT_SUFFIXES + (".zip",))
        claimed = False
        for e in table.component:
            if any(fnmatch.fnmatch(rel.lower() if "/" in pat else name.lower(), pat.lower()) for pat in e.files):
                add_entry(e, rel)
                claimed = True
        owner = None
        for root in CONTENT_ROOTS:
            if root and not rel.startswith(root + "/"):
                continue
            owner = record_owner.get(rel[len(root) + 1:] if root else rel)
            if owner:
                break
        info_dir = next((p for p in rel.split("/") if p.endswith(".dist-info")), None)
        if owner is None and info_dir:
            owner = env.get(_norm(info_dir[: -len(".dist-info")].rsplit("-", 1)[0]))
        if owner is not None and not (claimed and _lib_like(rel)):
            add_dist(owner, rel)
            claimed = claimed or not _lib_like(rel)
        if not claimed and required and not _lib_like(rel):
            module = name.split(".")[0]
            if module in sys.stdlib_module_names:
                add_entry(stdlib, rel)
                claimed = True
        if required and not claimed:
            why = "a shared library" if _lib_like(rel) else "a binary or font"
            problems.append(f"{rel}: {why} that no component of {TABLE.name} (field files) "
                            "nor any installed distribution's RECORD claims")

    for module in sorted(archive_modules(folder)):
        entry = next((e for e in table.component if any(fnmatch.fnmatch(module, m) for m in e.modules)), None)
        if entry is not None:
            add_entry(entry, f"module {module}")
        elif module in module_owner:
            add_dist(module_owner[module], f"module {module}")
        elif module in sys.stdlib_module_names or module.startswith("_sysconfigdata"):
            add_entry(stdlib, f"module {module}")
        else:
            problems.append(f"module {module} in the program's archive: no distribution installed here owns "
                            f"it and no component of {TABLE.name} (field modules) names it")
    for c in comps.values():
        if not c.texts:
            problems.append(f"component {c.id}: no licence text")
        for _, src in c.texts:
            if not src.is_file() or src.stat().st_size == 0:
                problems.append(f"component {c.id}: licence text {src} is missing or empty")
    return Report(comps, sorted(set(problems)))


def _ordered(report: Report) -> list[Component]:
    return sorted(report.components.values(), key=lambda c: (c.id != "gonzaga", c.name.lower()))


def render(report: Report, folder_name: str) -> str:
    """The text of THIRD_PARTY_NOTICES.md for this build."""
    lines = [PREAMBLE.read_text(encoding="utf-8").rstrip(), "",
             "## Components of this build", "",
             f"Generated by `tools/notices.py` from the built folder `{folder_name}`: "
             f"{len(report.components)} components. Their licence texts are in the `{LICENSES_DIR}/` "
             "folder beside this file.", "",
             "| component | version | licence | licence texts | found as |", "|---|---|---|---|---|"]
    for c in _ordered(report):
        texts = ", ".join(f"`{LICENSES_DIR}/{name}`" for name, _ in c.texts)
        found = ", ".join(f"`{f}`" for f in c.found_as[:3]) + (f" and {len(c.found_as) - 3} more"
                                                               if len(c.found_as) > 3 else "")
        name = f"[{c.name}]({c.url})" if c.url else c.name
        lines.append(f"| {name} | {c.version or '—'} | {c.licence} | {texts} | {found} |")
    lgpl = [c.name for c in _ordered(report) if "LGPL" in c.licence]
    if lgpl:
        lines += ["", "## Replacing the LGPL libraries", "",
                  f"{', '.join(lgpl)}: under the GNU LGPL. Each is a separate, dynamically loaded file in the "
                  "program's folder and may be replaced by a compatible build of your own; their sources are at "
                  "the addresses above. GNU readline (GPL) is left out of the build."]
    notices = [c for c in _ordered(report) if c.notice]
    if notices:
        lines += ["", "## Notices the licences ask for", ""] + [f"- **{c.name}**: {c.notice}" for c in notices]
    return "\n".join(lines) + "\n"


def write(report: Report, folder_name: str, out: Path) -> None:
    """Write THIRD_PARTY_NOTICES.md and licenses/ into ``out`` (a licenses/ left there is replaced)."""
    target = out / LICENSES_DIR
    if target.resolve() == TABLE.parent.resolve():
        raise ValueError(f"{out} is the repository: write the notices into a built folder")
    if target.exists():
        shutil.rmtree(target)
    for c in report.components.values():
        for name, src in c.texts:
            dest = target / name
            dest.parent.mkdir(parents=True, exist_ok=True)
            if not dest.exists():
                shutil.copyfile(src, dest)
    (out / NOTICES_NAME).write_text(render(report, folder_name), encoding="utf-8")


def default_out(folder: Path) -> Path:
    for sub in ("Contents/Resources", "_internal"):
        if (folder / sub).is_dir():
            return folder / sub
    return folder


def generate(folder: Path, out: Path | None = None) -> Report:
    """Scan ``folder`` and write its notices (what build_exe.spec calls after COLLECT)."""
    report = scan(folder)
    write(report, folder.name, out or default_out(folder))
    return report


def figure(report: Report) -> str:
    return f"components: {len(report.components)} found, {len(report.complete)} with notice and licence text"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dist", required=True, type=Path, help="the built folder (dist/Gonzaga or Gonzaga.app)")
    ap.add_argument("--out", type=Path, help="where to write the notices and licenses/ (default: inside --dist)")
    ap.add_argument("--check", action="store_true", help="only check; write nothing")
    args = ap.parse_args(argv)
    if not args.dist.is_dir():
        print(f"notices: {args.dist} is not a folder", file=sys.stderr)
        return 2
    try:
        report = scan(args.dist)
    except TableError as e:
        print(f"notices: {e}", file=sys.stderr)
        return 2
    if not args.check:
        out = args.out or default_out(args.dist)
        out.mkdir(parents=True, exist_ok=True)
        try:
            write(report, args.dist.name, out)
        except ValueError as e:
            print(f"notices: {e}", file=sys.stderr)
            return 2
    print(figure(report))
    for p in report.problems:
        print(f"missing: {p}", file=sys.stderr)
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
