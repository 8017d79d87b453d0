"""The game says the rules in its own words (issue 41): no game text repeats twelve or more
consecutive words of the printed rulebooks (English or Italian). The rulebooks are not in the
repository; ``tests/data/rulebook_shingles.txt`` holds the hashes of their twelve-word shingles
(``tools/rulebook_shingles.py``), so the check runs on a clean clone.

Checked: every message of every catalog (interface, refusals, rules text line by line), the
rules text as shown, every string written in the game's code, and the documentation."""
from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import pytest

from gonzaga.words import catalog, i18n, rules_text, source

ROOT = Path(__file__).resolve().parent.parent


def _load_tool():
    """tools/rulebook_shingles.py: the shingles and their hashes (a tool, not part of the game)."""
    spec = importlib.util.spec_from_file_location("rulebook_shingles", ROOT / "tools" / "rulebook_shingles.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


TOOL = _load_tool()
SIZE, digest, matches, words = TOOL.SIZE, TOOL.digest, TOOL.matches, TOOL.words
HASHES = ROOT / "tests" / "data" / "rulebook_shingles.txt"


def known() -> set[str]:
    lines = HASHES.read_text(encoding="utf-8").splitlines()
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


def game_texts() -> dict[str, str]:
    out = {f"en:{k}": v for k, v in source.english().items()}
    for po in catalog.LOCALE.glob("*/LC_MESSAGES/*.po"):
        lang = po.parent.parent.name
        out.update({f"{lang}:{k}": v for k, v in catalog.load(lang).items()})
    for lang in i18n.LANGUAGES:
        out[f"rules_text.text({lang!r})"] = rules_text.text(lang)
    for path in sorted((ROOT / "gonzaga").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value.split()) >= SIZE:
                out[f"{path.relative_to(ROOT)}:{node.lineno}"] = node.value
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        if path.is_file():
            out[str(path.relative_to(ROOT))] = path.read_text(encoding="utf-8")
    return out


def test_the_hashes_are_there_and_plausible():
    hashes = known()
    assert len(hashes) > 4000  # two rulebooks of about 3,000 words each
    assert all(len(h) == 16 and int(h, 16) >= 0 for h in hashes)


def test_no_game_text_repeats_twelve_words_of_a_rulebook():
    hashes = known()
    texts = game_texts()
    assert len(texts) > 1000 and "it:rules.1.2" in texts and "docs/rules.md" in texts
    found = [f"{where}: {passage!r}" for where, text in texts.items() for passage in matches(text, hashes)]
    assert not found, "in the rulebook's words, say it in ours:\n" + "\n".join(found)


def test_the_normalisation_ignores_case_accents_and_punctuation():
    assert words("Alla FINE, il giocatore — con l'anello... città!") == \
        ["alla", "fine", "il", "giocatore", "con", "l", "anello", "citta"]
    twelve = "one two three four five six seven eight nine ten eleven twelve"
    assert matches("Zero: " + twelve.upper().replace(" ", ", ") + ". Thirteen", {digest(twelve.split())}) == [twelve]
    assert matches(twelve.rsplit(" ", 1)[0], {digest(twelve.split())}) == []


@pytest.mark.skipif(not Path("/work/shared/rules/gonzaga-rules-en.md").is_file(), reason="no rulebooks here")
def test_the_committed_hashes_are_those_of_the_rulebooks():
    """Where the rulebooks are at hand, the committed file is what the tool makes of them."""
    assert set(TOOL.build(Path("/work/shared/rules"))) == known()
