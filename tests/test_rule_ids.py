"""Every rule id of the spec has a test that says it checks it, with a ``rule`` marker.

A rule test carries ``@pytest.mark.rule("W4")`` (several ids: ``@pytest.mark.rule("D1", "R4")``;
a whole module: ``pytestmark = pytest.mark.rule(...)``). Only markers count: an id in a test's
name, docstring or a comment does not. The ids required are those of parts B, C and D of the
spec (``shared/design/spec.md`` beside the repository; ``GONZAGA_SPEC`` may name another path)
plus the project's ids for spec part E below. The repository keeps a copy, ``docs/spec.md``: where
the original is at hand the copy must equal it (so it never goes stale), and where it is not (a
clone on its own) the copy is the contract the ids are read from. Neither at hand fails the test.
"""
from __future__ import annotations

import importlib
import inspect
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
SPEC = Path(os.environ.get("GONZAGA_SPEC") or ROOT.parent / "shared" / "design" / "spec.md")

# Spec part E ("what this edition adds") has no numbered clauses; these ids name the parts of it
# that tests check, so that the mutation run (tools/mutate.py) can tell which test guards what.
PROJECT_IDS = {
    "E-view": "AI seats and the shared screen get only what one seat may know (spec E)",
    "E-save": "saves and autosave: crash-safe writes; an edited or damaged save is refused (spec E)",
    "E-table": "one authority: only the table changes a game; who may act, take back, hint or hand over (issue 38)",
    "E-session": "the session is the one authority: it applies only a seat's own legal actions and bumps its version",
    "E-takeback": "take-backs: only one's own last decision nobody else has seen, restored exactly (issue 11)",
    "E-hint": "hints: from the seat's view only, and never shown once the game has left their position",
    "E-net": "the online server: a seat's token, the action count and the message size are checked (issue 14)",
    "E-words": "the words: a key in the player's language (English where it has none), its plural, a logged term",
    "E-ui": "the screens' small parts: own keys (a conflict refused, the choice kept), the map's palette checked at load",
}

EXPECTED = ({f"S{i}" for i in range(1, 6)} | {f"R{i}" for i in range(1, 7)} | {f"P{i}" for i in range(1, 11)}
            | {f"W{i}" for i in range(1, 7)} | {f"K{i}" for i in range(1, 5)} | {f"X{i}" for i in range(1, 7)}
            | {f"E{i}" for i in range(1, 4)} | {f"D{i}" for i in range(1, 6)})


def spec_ids(text: str) -> set[str]:
    """The clause ids of parts B, C and D: ``**S1**``/``**R1 Take your fief.**`` items, ``### D1`` heads."""
    ids: set[str] = set()
    for part in re.split(r"^## ", text, flags=re.M)[1:]:
        if part[:2] in ("B.", "C.", "D."):
            ids |= set(re.findall(r"^- \*\*([A-Z]\d{1,2})\b", part, flags=re.M))
            ids |= set(re.findall(r"^### (D\d{1,2})\b", part, flags=re.M))
    return ids


COPY = ROOT / "docs" / "spec.md"


def _spec_text() -> str:
    if SPEC.is_file():
        return SPEC.read_text(encoding="utf-8")
    if COPY.is_file():
        return COPY.read_text(encoding="utf-8")
    pytest.fail(f"the spec is missing: neither {SPEC} nor its copy {COPY} (set GONZAGA_SPEC to its path)",
                pytrace=False)


def test_the_repository_copy_of_the_spec_is_current():
    if not SPEC.is_file():  # a clone on its own: the copy is all there is, and the tests read it
        assert COPY.is_file(), f"neither {SPEC} nor {COPY}"
        return
    assert COPY.read_text(encoding="utf-8") == SPEC.read_text(encoding="utf-8"), \
        f"docs/spec.md differs from {SPEC}: copy the spec into docs/spec.md"


def _marks(obj) -> list:
    marks = getattr(obj, "pytestmark", [])
    return marks if isinstance(marks, list) else [marks]


def rule_marks() -> dict[str, set[str]]:
    """Every test function (``module::name``) with its rule ids, read from the imported test modules."""
    out: dict[str, set[str]] = {}
    for path in sorted(TESTS.glob("test_*.py")):
        module = importlib.import_module(path.stem)
        module_ids = {i for m in _marks(module) if m.name == "rule" for i in m.args}
        holders = [("", module)] + [(f"{n}.", c) for n, c in vars(module).items()
                                    if inspect.isclass(c) and n.startswith("Test") and c.__module__ == module.__name__]
        for prefix, holder in holders:
            class_ids = {i for m in _marks(holder) if m.name == "rule" for i in m.args} if prefix else set()
            for name, fn in vars(holder).items():
                if name.startswith("test") and callable(fn):
                    ids = module_ids | class_ids | {i for m in _marks(fn) if m.name == "rule" for i in m.args}
                    out[f"{path.name}::{prefix}{name}"] = ids
    return out


@pytest.fixture(scope="module")
def marks() -> dict[str, set[str]]:
    return rule_marks()


def test_the_spec_has_the_expected_ids():
    found = spec_ids(_spec_text())
    assert found, f"no clause ids found in {SPEC}: has its layout changed?"
    assert EXPECTED <= found, f"ids this test expects but the spec lacks: {sorted(EXPECTED - found)}"


def test_every_spec_id_is_documented_in_docs_rules():
    documented = set(re.findall(r"\*\*([A-Z]\d{1,2})\*\*", (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")))
    missing = sorted(spec_ids(_spec_text()) - documented, key=_order)
    assert not missing, f"spec ids not in docs/rules.md: {missing}"


def test_every_spec_id_has_a_marked_test(marks):
    required = spec_ids(_spec_text()) | set(PROJECT_IDS)
    covered = set().union(*marks.values())
    missing = sorted(required - covered, key=_order)
    assert not missing, f"ids without a test marked @pytest.mark.rule(...): {missing}"


def test_markers_name_only_known_ids(marks):
    known = spec_ids(_spec_text()) | set(PROJECT_IDS)
    unknown = {t: sorted(ids - known) for t, ids in marks.items() if ids - known}
    assert not unknown, f"rule markers naming ids that are not in the spec: {unknown}"


def test_a_test_named_after_an_id_carries_its_marker(marks):
    """``test_W4_...`` must be marked W4: the name alone is not evidence, the marker is."""
    wrong = {}
    for test, ids in marks.items():
        named = set(re.findall(r"(?<=_)([SRPWKXED]\d{1,2})(?=_)", test.split("::")[1] + "_"))
        named &= EXPECTED
        if named - ids:
            wrong[test] = sorted(named - ids)
    assert not wrong, f"tests named after ids they are not marked with: {wrong}"


def test_the_marker_reader_ignores_comments_and_names(tmp_path, monkeypatch):
    """A module that only mentions an id in a comment, a docstring and a name has no marked test."""
    (tmp_path / "test_fake_ids_module.py").write_text(
        'import pytest\n\n\ndef test_W4_only_named():\n    """W4"""\n    pass  # W4\n\n\n'
        '@pytest.mark.rule("W3", "W2")\ndef test_marked():\n    pass\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(globals(), "TESTS", tmp_path)
    got = rule_marks()
    assert got == {"test_fake_ids_module.py::test_W4_only_named": set(),
                   "test_fake_ids_module.py::test_marked": {"W2", "W3"}}


def _order(i: str):
    m = re.match(r"([A-Z])(\d+)", i)
    return ("SRPWKXED".find(m.group(1)), int(m.group(2))) if m else (99, 0)
