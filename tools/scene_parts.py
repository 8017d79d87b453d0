"""The game screen's parts in figures (issue 45, docs/architecture.md): each class of the game
screen's modules with its lines and the attributes it keeps on ``self``, and the screens counted
with the classes they mix in (their bases in the package, all the way up, as tests/test_floors.py
counts them), and the package's largest class so counted.

    .venv/bin/python tools/scene_parts.py [TREE]

TREE: another checkout of the project to count (for example ``git worktree add /tmp/old <commit>``).
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "gonzaga"
PARTS = ["scenes/game/*.py", "scenes/tutorial*.py", "scenes/replay_view.py", "scenes/replay_bar.py", "scenes/feedback*.py"]
SCREENS = ("GameScene", "ReplayScene", "TutorialGameScene")


def _used(cls: ast.ClassDef) -> set[str]:
    """Every name the class reads or writes on ``self`` (its attributes, its own and its bases' methods)."""
    return {e.attr for e in ast.walk(cls) if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name)
            and e.value.id == "self"}


def _attrs(cls: ast.ClassDef) -> set[str]:
    """The names the class's methods assign on ``self`` (``self.x = ...``, annotated or augmented)."""
    out = set()
    for n in ast.walk(cls):
        targets = n.targets if isinstance(n, ast.Assign) else [n.target] if isinstance(n, (ast.AnnAssign, ast.AugAssign)) \
            else []
        for t in targets:
            for e in ast.walk(t):
                if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and e.value.id == "self":
                    out.add(e.attr)
    return out


def classes(pkg: Path = PKG) -> dict[str, tuple[str, int, list[str], set[str], set[str]]]:
    """Every class of the package by name: (module path, lines, bases by name, attributes, names used on self)."""
    out: dict[str, tuple[str, int, list[str], set[str], set[str]]] = {}
    for path in sorted(pkg.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for n in ast.walk(tree):
            if isinstance(n, ast.ClassDef) and n.end_lineno is not None:
                bases = [b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in n.bases]
                out.setdefault(n.name, (str(path.relative_to(pkg)), n.end_lineno - n.lineno + 1, bases, _attrs(n), _used(n)))
    return out


def with_bases(name: str, table: dict) -> tuple[int, set[str], set[str]]:
    """A class's lines, attributes and names used on self with those of its bases in the package."""
    seen: set[str] = set()
    lines, attrs, used = 0, set(), set()

    def walk(c: str) -> None:
        nonlocal lines
        if c in seen or c not in table:
            return
        seen.add(c)
        lines += table[c][1]
        attrs.update(table[c][3])
        used.update(table[c][4])
        for b in table[c][2]:
            walk(b)
    walk(name)
    return lines, attrs, used


def main() -> None:
    pkg = Path(sys.argv[1]) / "gonzaga" if len(sys.argv) > 1 else PKG
    table = classes(pkg)
    part_files = {str(p.relative_to(pkg)) for pat in PARTS for p in pkg.glob(pat)}
    head = f"{'lines':>5} {'attributes':>10} {'self names':>10}"
    print(f"{'class':28} {'module':34} {head}")
    for name, (mod, lines, _bases, attrs, used) in sorted(table.items(), key=lambda kv: (kv[1][0], kv[0])):
        if mod in part_files:
            print(f"{name:28} {mod:34} {lines:5} {len(attrs):10} {len(used):10}")
    print(f"\n{'screen, with its bases':63} {head}")
    for name in SCREENS:
        lines, attrs, used = with_bases(name, table)
        print(f"{name:63} {lines:5} {len(attrs):10} {len(used):10}")
    biggest = max(table, key=lambda c: with_bases(c, table)[0])
    lines, attrs, used = with_bases(biggest, table)
    print(f"\nthe largest class with its bases: {biggest} ({table[biggest][0]}): {lines} lines, "
          f"{len(attrs)} attributes, {len(used)} names used on self")


if __name__ == "__main__":
    main()
