"""tools/linux_reach.py reads the glibc symbol versions a build needs (issue 46): on ELF files made
here byte by byte (every system), and on this machine's own Python where there is one."""
import importlib.util
import json
import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("linux_reach", ROOT / "tools" / "linux_reach.py")
reach = importlib.util.module_from_spec(_spec)
sys.modules["linux_reach"] = reach  # its dataclasses look the module up
_spec.loader.exec_module(reach)


def make_elf(needs: dict[str, list[str]], needed: list[str], wide: bool = True, order: str = "<") -> bytes:
    """A minimal ELF file with a string table, a version-needs section (``needs``: library -> version
    names) and a dynamic section (DT_NEEDED ``needed``), laid out as the ELF specification says."""
    strtab = bytearray(b"\0")

    def s(text):
        off = len(strtab)
        strtab.extend(text.encode() + b"\0")
        return off
    verneed = bytearray()
    libs = list(needs.items())
    for i, (lib, versions) in enumerate(libs):
        aux = b"".join(struct.pack(order + "IHHII", 0, 0, 0, s(v), 16 if j < len(versions) - 1 else 0)
                       for j, v in enumerate(versions))
        nxt = 16 + len(aux) if i < len(libs) - 1 else 0
        verneed += struct.pack(order + "HHIII", 1, len(versions), s(lib), 16, nxt) + aux
    dyn_fmt = order + ("qQ" if wide else "iI")
    dynamic = b"".join(struct.pack(dyn_fmt, 1, s(n)) for n in needed) + struct.pack(dyn_fmt, 0, 0)
    ehsize, shentsize = (64, 64) if wide else (52, 40)
    body = bytes(strtab) + bytes(verneed) + dynamic
    offs = [ehsize, ehsize + len(strtab), ehsize + len(strtab) + len(verneed)]
    shoff = ehsize + len(body)
    sh_fmt = order + ("IIQQQQIIQQ" if wide else "IIIIIIIIII")
    sections = [struct.pack(sh_fmt, *[0] * 10),
                struct.pack(sh_fmt, 0, 3, 0, 0, offs[0], len(strtab), 0, 0, 1, 0),  # SHT_STRTAB
                struct.pack(sh_fmt, 0, 0x6FFFFFFE, 0, 0, offs[1], len(verneed), 1, len(libs), 4, 0),
                struct.pack(sh_fmt, 0, 6, 0, 0, offs[2], len(dynamic), 1, 0, 8, 16 if wide else 8)]
    ident = b"\x7fELF" + bytes([2 if wide else 1, 1 if order == "<" else 2, 1]) + bytes(9)
    if wide:
        header = ident + struct.pack(order + "HHIQQQIHHHHHH", 3, 62, 1, 0, 0, shoff, 0, ehsize, 0, 0,
                                     shentsize, len(sections), 0)
    else:
        header = ident + struct.pack(order + "HHIIIIIHHHHHH", 3, 3, 1, 0, 0, shoff, 0, ehsize, 0, 0,
                                     shentsize, len(sections), 0)
    return header + body + b"".join(sections)


@pytest.mark.parametrize("wide,order", [(True, "<"), (False, "<"), (True, ">")])
def test_reads_the_version_needs_and_the_needed_libraries(wide, order):
    data = make_elf({"libc.so.6": ["GLIBC_2.2.5", "GLIBC_2.34"], "libm.so.6": ["GLIBC_2.29"]},
                    ["libm.so.6", "libc.so.6"], wide, order)
    needs = reach.read_elf(data)
    assert needs.versions == {"libc.so.6": {"GLIBC_2.2.5", "GLIBC_2.34"}, "libm.so.6": {"GLIBC_2.29"}}
    assert needs.needed == ["libm.so.6", "libc.so.6"]


def test_the_highest_version_over_a_folder_and_the_distributions_it_rules_in(tmp_path):
    lib = tmp_path / "Gonzaga" / "_internal"
    lib.mkdir(parents=True)
    (lib / "libfoo.so.1").write_bytes(make_elf({"libc.so.6": ["GLIBC_2.17", "GLIBC_2.28"]}, ["libc.so.6"]))
    (lib / "libbar.so.2").write_bytes(make_elf({"libc.so.6": ["GLIBC_2.3.4"], "libfoo.so.1": ["FOO_1"]},
                                               ["libfoo.so.1", "libdl.so.2"]))
    (lib / "data.txt").write_text("not an ELF file")
    r = reach.scan(tmp_path / "Gonzaga")
    assert r.highest == (2, 28) and r.needed_by == ["_internal/libfoo.so.1"] and r.elf_files == 2
    assert r.system_libraries == ["libc.so.6", "libdl.so.2"]  # libfoo.so.1 is in the folder
    ok, too_old = r.distros()
    assert "Debian 10 buster" in ok and "RHEL / AlmaLinux / Rocky Linux 8" in ok
    assert too_old == ["Ubuntu 18.04 LTS"]  # glibc 2.27


def test_the_command_prints_json_and_guards_a_maximum(tmp_path, capsys):
    (tmp_path / "libx.so").write_bytes(make_elf({"libc.so.6": ["GLIBC_2.35"]}, ["libc.so.6"]))
    assert reach.main(["glibc", str(tmp_path), "--json", "--max", "2.35"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["glibc"] == "2.35" and "Ubuntu 22.04 LTS" in out["runs_on"] and "Debian 11 bullseye" in out["too_old"]
    assert reach.main(["glibc", str(tmp_path), "--max", "2.28"]) == 1
    assert "above 2.28" in capsys.readouterr().err


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads this machine's ELF Python")
def test_agrees_with_readelf_on_this_machines_python(tmp_path):
    """The running Python and its libpython, if any: the same highest GLIBC_ version readelf -V
    finds, and no higher than the glibc this machine runs."""
    exe = Path(os.path.realpath(sys.executable))
    shutil.copy(exe, tmp_path / exe.name)
    r = reach.scan(tmp_path)
    libc = tuple(int(x) for x in os.confstr("CS_GNU_LIBC_VERSION").split()[1].split("."))
    assert r.highest is not None and r.highest[:2] <= libc[:2]
    if shutil.which("readelf"):
        out = subprocess.run(["readelf", "-V", str(exe)], capture_output=True, text=True).stdout
        versions = {reach.glibc_version(w.split("Name: ")[1].split()[0])
                    for w in out.splitlines() if "Name: GLIBC_" in w}
        assert r.highest == max(v for v in versions if v)
