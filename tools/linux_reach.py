"""Which Linux systems a build runs on (issue 46): the highest glibc symbol version its ELF files need.

    python tools/linux_reach.py glibc dist/Gonzaga [--max 2.28] [--json]

Reads the version-needs section (``.gnu.version_r``) of every ELF file in the folder, in pure
Python (no binutils), and prints the highest ``GLIBC_x.y`` any of them asks for, the files that ask
for it, the libraries they need from the system (DT_NEEDED names the folder does not hold), and
the distribution releases whose glibc is new enough (``DISTROS``). With ``--max`` it exits 1
when the build needs a newer glibc than that (CI's guard for the manylinux_2_28 build).
"""
from __future__ import annotations

import argparse
import json
import re
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

SHT_DYNAMIC = 6
SHT_GNU_VERNEED = 0x6FFFFFFE
DT_NEEDED = 1
GLIBC = re.compile(r"^GLIBC_(\d+)\.(\d+)(?:\.(\d+))?$")

# The glibc each release ships (its C library's version, as `ldd --version` prints it there).
DISTROS: tuple[tuple[str, tuple[int, int]], ...] = (
    ("Ubuntu 18.04 LTS", (2, 27)),
    ("Ubuntu 20.04 LTS", (2, 31)),
    ("Ubuntu 22.04 LTS", (2, 35)),
    ("Ubuntu 24.04 LTS", (2, 39)),
    ("Debian 10 buster", (2, 28)),
    ("Debian 11 bullseye", (2, 31)),
    ("Debian 12 bookworm", (2, 36)),
    ("Debian 13 trixie", (2, 41)),
    ("RHEL / AlmaLinux / Rocky Linux 8", (2, 28)),
    ("RHEL / AlmaLinux / Rocky Linux 9", (2, 34)),
    ("RHEL / AlmaLinux / Rocky Linux 10", (2, 39)),
    ("Amazon Linux 2023", (2, 34)),
    ("Fedora 41", (2, 40)),
    ("Fedora 42", (2, 41)),
    ("Linux Mint 21 (Ubuntu 22.04 base)", (2, 35)),
    ("Linux Mint 22 (Ubuntu 24.04 base)", (2, 39)),
)


class NotELF(ValueError):
    pass


@dataclass
class ElfNeeds:
    """What one ELF file asks of the system: version names per library, and its DT_NEEDED list."""
    versions: dict[str, set[str]] = field(default_factory=dict)
    needed: list[str] = field(default_factory=list)


def _cstr(data: bytes, offset: int) -> str:
    end = data.index(b"\0", offset)
    return data[offset:end].decode("ascii", "replace")


def read_elf(data: bytes) -> ElfNeeds:
    """Parse the section headers, the version-needs section and the dynamic section of an ELF image."""
    if data[:4] != b"\x7fELF":
        raise NotELF("not an ELF file")
    wide = {1: False, 2: True}.get(data[4])
    order = {1: "<", 2: ">"}.get(data[5])
    if wide is None or order is None:
        raise NotELF("unknown ELF class or byte order")
    if wide:
        shoff, = struct.unpack_from(order + "Q", data, 0x28)
        shentsize, shnum = struct.unpack_from(order + "HH", data, 0x3A)
        sh_fmt, dyn_fmt = order + "IIQQQQIIQQ", order + "qQ"
    else:
        shoff, = struct.unpack_from(order + "I", data, 0x20)
        shentsize, shnum = struct.unpack_from(order + "HH", data, 0x2E)
        sh_fmt, dyn_fmt = order + "IIIIIIIIII", order + "iI"
    sections = []
    for i in range(shnum):
        f = struct.unpack_from(sh_fmt, data, shoff + i * shentsize)
        sections.append({"type": f[1], "offset": f[4], "size": f[5], "link": f[6], "info": f[7]})
    needs = ElfNeeds()
    for s in sections:
        strtab = sections[s["link"]]["offset"] if s["link"] < len(sections) else 0
        if s["type"] == SHT_GNU_VERNEED:
            off = s["offset"]
            for _ in range(s["info"]):
                _, cnt, vn_file, vn_aux, vn_next = struct.unpack_from(order + "HHIII", data, off)
                lib = _cstr(data, strtab + vn_file)
                aux = off + vn_aux
                for _ in range(cnt):
                    _, _, _, name, vna_next = struct.unpack_from(order + "IHHII", data, aux)
                    needs.versions.setdefault(lib, set()).add(_cstr(data, strtab + name))
                    aux += vna_next
                if not vn_next:
                    break
                off += vn_next
        elif s["type"] == SHT_DYNAMIC:
            size = struct.calcsize(dyn_fmt)
            for off in range(s["offset"], s["offset"] + s["size"] - size + 1, size):
                tag, val = struct.unpack_from(dyn_fmt, data, off)
                if tag == 0:
                    break
                if tag == DT_NEEDED:
                    needs.needed.append(_cstr(data, strtab + val))
    return needs


def glibc_version(name: str) -> tuple[int, ...] | None:
    m = GLIBC.match(name)
    return tuple(int(g) for g in m.groups() if g is not None) if m else None


@dataclass
class Reach:
    highest: tuple[int, ...] | None
    needed_by: list[str]
    system_libraries: list[str]
    elf_files: int

    def distros(self) -> tuple[list[str], list[str]]:
        """(releases it runs on, releases whose glibc is too old)."""
        if self.highest is None:
            return [d for d, _ in DISTROS], []
        ok = [d for d, v in DISTROS if v >= self.highest[:2]]
        return ok, [d for d, v in DISTROS if v < self.highest[:2]]


def scan(folder: Path) -> Reach:
    """The highest GLIBC_ version any ELF file under ``folder`` needs, and what it needs from the system."""
    best: tuple[int, ...] | None = None
    by: dict[tuple[int, ...], list[str]] = {}
    bundled: set[str] = set()
    wanted: set[str] = set()
    count = 0
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and not p.is_symlink()):
        bundled.add(path.name)
        with path.open("rb") as f:
            if f.read(4) != b"\x7fELF":
                continue
        try:
            needs = read_elf(path.read_bytes())
        except (NotELF, struct.error, ValueError, IndexError):
            continue
        count += 1
        wanted.update(needs.needed)
        top = max((v for names in needs.versions.values() for n in names if (v := glibc_version(n))), default=None)
        if top is not None:
            by.setdefault(top, []).append(path.relative_to(folder).as_posix())
            best = top if best is None or top > best else best
    return Reach(best, by.get(best, []) if best else [], sorted(wanted - bundled), count)


def _fmt(v: tuple[int, ...] | None) -> str:
    return "GLIBC_" + ".".join(map(str, v)) if v else "no GLIBC symbol versions"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    g = sub.add_parser("glibc", help="the highest glibc symbol version the folder's ELF files need")
    g.add_argument("folder", type=Path)
    g.add_argument("--max", help="exit 1 when the build needs a newer glibc than this (e.g. 2.28)")
    g.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if not args.folder.is_dir():
        print(f"linux_reach: {args.folder} is not a folder", file=sys.stderr)
        return 2
    reach = scan(args.folder)
    ok, too_old = reach.distros()
    if args.json:
        print(json.dumps({"glibc": ".".join(map(str, reach.highest)) if reach.highest else None,
                          "needed_by": reach.needed_by, "elf_files": reach.elf_files,
                          "system_libraries": reach.system_libraries, "runs_on": ok, "too_old": too_old}))
    else:
        print(f"highest: {_fmt(reach.highest)} ({reach.elf_files} ELF files)")
        print(f"needed by: {', '.join(reach.needed_by) or '-'}")
        print(f"from the system: {', '.join(reach.system_libraries) or '-'}")
        print(f"runs on: {', '.join(ok) or '-'}")
        print(f"glibc too old: {', '.join(too_old) or '-'}")
    if args.max and reach.highest:
        limit = tuple(int(x) for x in args.max.split("."))
        if reach.highest > limit:
            print(f"linux_reach: the build needs {_fmt(reach.highest)}, above {args.max}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
