"""What the players read (the rules screen, the card and legend texts, the turn-order reasons)
says what the printed rulebook and the spec say, in English and in Italian, with the printed
Italian words (confine invalicabile, città e porti, terraferma, Lega Navale, ...)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from gonzaga.render.board_view import DEFAULT_TEXTS
from gonzaga.rules import scoring
from gonzaga.rules.content import load_content
from gonzaga.words import i18n, rules_text

ROOT = Path(__file__).resolve().parent.parent
EN = rules_text.text("en")
IT = rules_text.text("it")


def flat(s: str) -> str:
    """Lower case, one space between words (the viewer wraps lines anyway)."""
    return " ".join(s.lower().split())


def section(text: str, heading: str) -> str:
    """The body of the ``# heading`` section of a rules text."""
    m = re.search(rf"^# {re.escape(heading)}\n(.*?)(?=^# |\Z)", text, re.S | re.M)
    assert m, f"no section {heading!r}"
    return flat(m.group(1))


def italian_strings() -> dict[str, str]:
    """Every Italian string a player can meet: the table (with the refusals), the rules text."""
    out = {f"it:{k}": v for k, v in i18n.IT.items()}
    out["rules_text.IT"] = IT
    assert any(k.startswith("it:refusal.") for k in out)
    return out


# ---------------------------------------------------------------- the round

@pytest.mark.rule("R4", "K1")
def test_R4_turn_order_between_kings_is_the_other_action_card_then_the_card_number():
    en = section(EN, "A round")
    assert "makes a seat play first only among seats without it" in en
    assert "ordered among themselves by their other action card (harbors, then cities, then alliance)" in en
    assert "and only then by the lower fief card number" in en
    assert "ties go to the lower fief card" not in en  # the old, wrong summary
    it = section(IT, "Un turno")
    assert "fa piazzare prima solo rispetto a chi non lo ha" in it
    assert "tra due o più giocatori col privilegio del re decide la seconda carta azione di ciascuno " \
        "(porti, poi città, poi alleanza)" in it
    assert "se anche quella è la stessa, la carta feudo col numero più basso" in it
    assert "a parità gioca prima la carta feudo più bassa" not in it


@pytest.mark.rule("R4")
def test_R4_turn_order_reasons_name_the_other_card_and_the_fief_card():
    """The reveal's reasons: among Kings, the other action card; a tie, the fief card (not the
    action card); the card hint does not promise to go first whatever the others play."""
    for lang in i18n.LANGUAGES:
        i18n.set_language(lang)
        try:
            assert i18n.t("card.C") in i18n.t("reveal.why_K_then", action=i18n.t("card.C")), lang
        finally:
            i18n.set_language("en")
    assert i18n.EN["reveal.why_K_then"].startswith("among them")
    assert i18n.IT["reveal.why_K_then"].startswith("tra loro")
    assert "fief card" in i18n.EN["reveal.why_card"] and "carta feudo" in i18n.IT["reveal.why_card"]
    assert "without it" in i18n.EN["plan.king_hint"] and "chi non lo ha" in i18n.IT["plan.king_hint"]
    assert "go first" not in i18n.EN["plan.king_hint_short"]


@pytest.mark.rule("R1", "D1")
def test_R1_card_number_explained_with_the_colour_digits_of_the_content():
    digits = load_content().colour_digits
    order = sorted(digits, key=digits.get)
    en = ", ".join(f"{c} {digits[c]}" for c in order)
    it = ", ".join(f"{i18n.IT[f'colour.{c}'].lower()} {digits[c]}" for c in order)
    assert f"colour digit ({en})" in flat(EN)
    assert f"cifra del colore ({it})" in flat(IT)
    assert "fief 50 is card 51, 52, 53 or 54" in flat(EN)
    assert "il feudo 50 è la carta 51, 52, 53 o 54" in flat(IT)


@pytest.mark.rule("R6", "X3")
def test_R6_donation_always_allowed_and_never_rings():
    assert f"donate the fief to the church for {scoring.DONATION} points" in flat(EN)
    assert "a donation is always allowed, even when the fief could be placed; rings cannot be donated" in flat(EN)
    assert f"dona il feudo alla chiesa per {scoring.DONATION} punti" in flat(IT)
    assert "la donazione è sempre permessa, anche se potresti piazzare il feudo; " \
           "gli anelli non possono essere donati" in flat(IT)


@pytest.mark.rule("K4")
def test_K4_both_cards_rest_next_round():
    assert "neither card can be played in the next round" in flat(EN)
    assert "nel turno seguente non puoi giocare né il privilegio né l'altra carta" in flat(IT)


@pytest.mark.rule("S3")
def test_S3_inactive_regions_card_explained():
    assert "inactive regions for all the inactive ones" in flat(EN)
    assert "regioni inattive per tutte le regioni inattive" in flat(IT)
    assert "with the inactive regions card, in any inactive region" in section(EN, "Placing a fief")
    assert "con la carta regioni inattive, in una qualunque regione inattiva" in section(IT, "Come piazzare il feudo")


# ---------------------------------------------------------------- weddings

@pytest.mark.rule("W1", "W4")
def test_W1_W4_wedding_discards_the_fief_and_a_ring_may_go_on_a_rivals_fief():
    en, it = section(EN, "Weddings"), section(IT, "Il Matrimonio")
    assert "the round's fief is discarded and scores nothing" in en
    assert "a ring may go on an empty hex or on a rival's fief, never on your own fief" in en
    assert "il feudo del turno si scarta e non fa punti" in it
    assert "un anello può andare su un esagono vuoto o sul feudo di un avversario, mai su un tuo feudo" in it
    assert "your fief is discarded" in i18n.EN["place.wedding_help"].lower()
    assert "il feudo del turno si scarta" in i18n.IT["place.wedding_help"].lower()


@pytest.mark.rule("W5")
def test_W5_rings_never_recovered_and_count_as_one_fief():
    en, it = section(EN, "Weddings"), section(IT, "Il Matrimonio")
    assert "each ring counts as one fief" in en and "rings are never recovered" in en
    assert "ogni anello conta come un feudo" in it and "gli anelli non possono essere recuperati" in it


# ---------------------------------------------------------------- scoring

@pytest.mark.rule("X1", "P5")
def test_X1_P5_a_site_scores_even_under_a_rivals_ring():
    en, it = section(EN, "Scoring"), section(IT, "Punti")
    assert (f"{scoring.SITE_FLOURISHING} points in a flourishing region, "
            f"{scoring.SITE_INACTIVE} in an inactive region") in en
    assert "also when a rival's ring already holds it" in en
    assert (f"{scoring.SITE_FLOURISHING} punti in una regione fiorente, "
            f"{scoring.SITE_INACTIVE} in una regione inattiva") in it
    assert "anche se c'è già l'anello di un avversario" in it
    assert "even one that a rival's ring already holds (p5)" in section(EN, "Placing a fief")
    assert "anche se c'è già l'anello di un avversario (p5)" in section(IT, "Come piazzare il feudo")


@pytest.mark.rule("X2")
def test_X2_one_sea_league_per_sea():
    en, it = section(EN, "Scoring"), section(IT, "Punti")
    assert f"3 harbors of one sea, {scoring.SEA_LEAGUE} points; one sea league per sea" in en
    assert "a 4th harbor scores nothing more" in en
    assert f"3 porti dello stesso mare, {scoring.SEA_LEAGUE} punti; una lega navale per ciascun mare" in it
    assert "il 4° porto non dà punti in più" in it


@pytest.mark.rule("X4")
def test_X4_gonzaga_tile_ties_rings_and_barriers():
    en, it = section(EN, "Scoring"), section(IT, "Punti")
    assert f"the gonzaga tile: {scoring.GONZAGA_TILE} points to the seat with the most connected fiefs" in en
    assert "every tied seat scores it" in en
    assert "each ring counts as one fief, and barriers do not break a dominion" in en
    assert "connected even across a barrier" in en
    assert f"tessera bonus gonzaga: {scoring.GONZAGA_TILE} punti a chi ha più feudi collegati" in it
    assert f"tutti i giocatori in parità fanno {scoring.GONZAGA_TILE} punti" in it
    assert "ogni anello conta come 1 feudo, e i confini invalicabili non dividono un dominio" in it


@pytest.mark.rule("X5", "X6")
def test_X5_objective_table_is_the_engines():
    table = scoring.OBJECTIVE_TABLE
    counts = ", ".join(str(n) for n in range(len(table) - 1))
    points = ", ".join(str(p) for p in table[:-1])
    assert f"{counts} or {len(table) - 1} of its six cities held score {points} or {table[-1]} points" in flat(EN)
    assert f"{counts} o {len(table) - 1} delle sue sei città coperte valgono {points} o {table[-1]} punti" in flat(IT)
    assert "the most cities and harbors" in flat(EN) and "chi tiene più città e porti in tutto" in flat(IT)


# ---------------------------------------------------------------- the end

@pytest.mark.rule("E1")
def test_E1_last_turn_checked_at_the_end_of_round_6_and_of_every_later_round():
    en, it = section(EN, "The end"), section(IT, "Fine della partita")
    assert "at the end of round 6 and of every later round" in en
    assert "from round 6" not in en
    assert "alla fine del 6° turno e di ogni turno successivo" in it
    assert "dal 6° turno" not in it
    assert "the card goes under the next fief card" in en
    assert "la carta va sotto la prima carta feudo del mazzo" in it


# ---------------------------------------------------------------- barriers and the legend

@pytest.mark.rule("P9", "X4")
def test_P9_legend_says_no_fief_straddles_a_barrier():
    for text in (i18n.EN["legend.barrier"], DEFAULT_TEXTS["legend.barrier"]):
        assert "straddle" in text and "across" not in text, text
    assert DEFAULT_TEXTS["legend.barrier"] == i18n.EN["legend.barrier"]
    assert i18n.IT["legend.barrier"].startswith("Confine invalicabile:") and "a cavallo" in i18n.IT["legend.barrier"]
    assert "no fief may straddle a barrier" in section(EN, "Placing a fief")
    assert "nessun feudo può posare a cavallo di un confine invalicabile" in section(IT, "Come piazzare il feudo")


# ---------------------------------------------------------------- the printed Italian words

@pytest.mark.rule("P8", "P9", "W3")
def test_italian_uses_the_printed_words():
    strings = italian_strings()
    for where, s in strings.items():
        low = s.lower()
        assert not re.search(r"\bbarrier[ae]\b", low), f"{where}: {s!r} (printed: confine invalicabile)"
        assert not re.search(r"\bsit[oi]\b", low), f"{where}: {s!r} (printed: città e porti)"
        assert "lega marittima" not in low and "leghe marittime" not in low, f"{where}: {s!r} (printed: Lega Navale)"
        # "terra" only where the printed rules pair land and sea ("di terra o di mare");
        # the castles stand on "terraferma"
        for m in re.finditer(r"\bterra\b", low):
            assert low[m.start():m.start() + 8] == "terra o ", f"{where}: {s!r} (printed: terraferma)"
    assert "confine invalicabile" in flat(IT)
    assert "i castelli su esagoni di terraferma" in flat(IT)
    assert i18n.IT["end.sites"] == "Città e porti"
    assert "confine invalicabile" in i18n.IT["refusal.barrier"]


def test_both_tables_have_the_same_keys_and_placeholders():
    assert set(i18n.EN) == set(i18n.IT), set(i18n.EN) ^ set(i18n.IT)
    for k, v in i18n.EN.items():
        assert i18n.placeholders(v) == i18n.placeholders(i18n.IT[k]), k
    heads = [re.findall(r"^# ", t, re.M) for t in (EN, IT)]
    assert len(heads[0]) == len(heads[1])

