"""Secrets by construction, read from the code (issue 45): no screen or drawing module
(``gonzaga/scenes``, ``gonzaga/render``, ``gonzaga/ui``) can reach a game's full state, its
record or its authority. A screen holds a game's face (``table/seatview.py``); the session stays
with the app.

What is refused, in the code of those modules:

- importing ``Session``, ``ReplaySession``, ``RemoteSession`` or the authority's ``Table``
  (``gonzaga.table.core``);
- any ``.record`` or ``.authority`` (the record holds the setup: every objective and deck);
- reading ``.session`` except to hand it on (a call's argument) or to ask ``is None``: the online
  lobby passes the network's new session to the app, which makes its face;
- ``.table`` or ``.state`` of anything named a session or a face.

``python tests/test_screen_secrets.py`` prints every place found (the figure for
docs/architecture.md: 0).
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCREENS = ("scenes", "render", "ui")
FORBIDDEN_NAMES = {"Session", "ReplaySession", "RemoteSession"}
AUTHORITY_MODULES = {"gonzaga.table.core"}
NEVER = {"record", "authority"}


def _dotted(node: ast.AST) -> str:
    """``a.b.c`` for a chain of names and attributes (calls and subscripts as ``()``)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    if isinstance(node, ast.Call):
        return f"{_dotted(node.func)}()"
    if isinstance(node, ast.Subscript):
        return f"{_dotted(node.value)}[]"
    return "?"


def _module_of(path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)[:-node.level]
    return ".".join(parts + ([node.module] if node.module else []))


def reaches(source: str, path: Path = ROOT / "gonzaga" / "scenes" / "game" / "x.py") -> list[str]:
    """Every place in ``source`` (a screen module's code) that could reach a game's secrets."""
    tree = ast.parse(source)
    parents: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    out = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.ImportFrom):
            mod = _module_of(path, node)
            for a in node.names:
                if a.name in FORBIDDEN_NAMES or mod in AUTHORITY_MODULES or \
                        (a.name == "Table" and mod in ("gonzaga.table", "gonzaga.table.core")):
                    out.append(f"{line}: imports {a.name} from {mod}")
        elif isinstance(node, ast.Import):
            out += [f"{line}: imports {a.name}" for a in node.names if a.name in AUTHORITY_MODULES]
        elif isinstance(node, ast.Attribute):
            receiver = _dotted(node.value).lower()
            if node.attr in NEVER:
                out.append(f"{line}: .{node.attr} ({_dotted(node)})")
            elif node.attr in ("table", "state") and ("session" in receiver or receiver.endswith("face")):
                out.append(f"{line}: .{node.attr} of {_dotted(node.value)}")
            elif node.attr == "session" and isinstance(node.ctx, ast.Load):
                up = parents.get(node)
                handed_on = isinstance(up, ast.Call) and node in up.args
                asked_none = isinstance(up, ast.Compare) and all(isinstance(op, (ast.Is, ast.IsNot)) for op in up.ops) \
                    and any(isinstance(c, ast.Constant) and c.value is None for c in up.comparators)
                if not (handed_on or asked_none):
                    out.append(f"{line}: reads .session ({_dotted(node)})")
    return sorted(set(out), key=lambda s: int(s.split(":")[0]))


def screen_files() -> list[Path]:
    return sorted(f for d in SCREENS for f in (ROOT / "gonzaga" / d).rglob("*.py"))


def all_reaches() -> list[str]:
    return [f"{f.relative_to(ROOT)}:{r}" for f in screen_files() for r in reaches(f.read_text(encoding="utf-8"), f)]


def test_no_screen_or_drawing_module_reaches_the_session_the_record_or_the_authority():
    assert len(screen_files()) > 40  # the screens are there (a moved folder would pass silently)
    found = all_reaches()
    assert found == [], "\n".join(found)


def test_the_reading_finds_each_way_a_screen_could_reach_a_secret():
    """The check knows the answer on code written to break each rule (and lets the rest by)."""
    planted = {
        "from ..table.session import Session": "imports Session",
        "from ...table.core import Table": "imports Table",
        "from gonzaga.table import Table": "imports Table",
        "from ..net.remote import RemoteSession": "imports RemoteSession",
        "n = len(self.face.record.actions)": ".record",
        "s = self.game.session.authority": ".authority",
        "st = self.session.state": "reads .session",
        "s = self.session": "reads .session",
        "self.game.session.submit(a)": "reads .session",
        "st = session.state": ".state of session",
        "t = self.face.table": ".table of self.face",
        "st = face.state": ".state of face",
    }
    for code, said in planted.items():
        got = reaches(code)
        assert any(said in g for g in got), (code, got)
    fine = ["self.app.start_remote(t.session)", "if t.session is not None: pass", "st = self.state",
            "v = self.face.view(seat)", "from ..table.session import SeatSpec, new_seed",
            "from ..net.remote import Table", "t = self.link"]
    for code in fine:
        assert reaches(code) == [], code


if __name__ == "__main__":
    found = all_reaches()
    print("\n".join(found))
    print(f"screens_reaching_full_state: {len(found)}", file=sys.stderr)
