"""Every spec clause of parts B and C is in docs/rules.md, and every id there is named by a test."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT.parent / "shared" / "design" / "spec.md"
ID = re.compile(r"(?<![A-Za-z0-9])([SRPWKXED]\d{1,2})(?![0-9])")  # test_X2_... counts


def _doc_ids() -> set[str]:
    return set(re.findall(r"\*\*([SRPWKXED]\d{1,2})\*\*", (ROOT / "docs" / "rules.md").read_text()))


def _test_ids() -> set[str]:
    ids = set()
    for p in (ROOT / "tests").glob("test_*.py"):
        if p.name == "test_rule_ids.py":
            continue
        ids |= set(ID.findall(p.read_text()))
    return ids


def test_every_spec_clause_is_documented():
    expected = {f"S{i}" for i in range(1, 6)} | {f"R{i}" for i in range(1, 7)} | \
        {f"P{i}" for i in range(1, 11)} | {f"W{i}" for i in range(1, 7)} | \
        {f"K{i}" for i in range(1, 5)} | {f"X{i}" for i in range(1, 7)} | {f"E{i}" for i in range(1, 4)}
    if SPEC.exists():  # the spec beside the repository, as in CI
        spec_ids = set(re.findall(r"\*\*([SRPWKXE]\d{1,2})\b", SPEC.read_text()))
        assert expected <= spec_ids
    assert expected <= _doc_ids()


def test_every_documented_id_is_named_by_a_test():
    missing = sorted(_doc_ids() - _test_ids())
    assert not missing, f"ids in docs/rules.md that no test names: {missing}"
