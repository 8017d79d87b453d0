"""The English and Italian interface tables match (same keys, same placeholders)."""
from gonzaga.words import i18n, rules_text


def test_same_keys_and_placeholders():
    assert set(i18n.EN) == set(i18n.IT), set(i18n.EN) ^ set(i18n.IT)
    for k, v in i18n.EN.items():
        assert i18n.placeholders(v) == i18n.placeholders(i18n.IT[k]), k


def test_switching_language_changes_log_lines():
    from gonzaga.table.session import SeatSpec, Session
    s = Session.new([SeatSpec("Ann", colour="red"), SeatSpec("Bob", colour="blue")], 3)
    try:
        i18n.set_language("it")
        assert s.log_lines()[1].startswith("Turno 1: feudi scoperti")
    finally:
        i18n.set_language("en")
    assert s.log_lines()[1].startswith("Round 1: fiefs turned up")


def test_rules_text_has_both_languages():
    assert rules_text.text("it") != rules_text.text("en")
    assert rules_text.text("en").count("# ") == rules_text.text("it").count("# ")


def test_placement_refusals_are_translated():
    """A refusal is a sentence in the player's language, worded from its key and parameters;
    its rule id is never shown."""
    from gonzaga.rules import Illegal
    try:
        i18n.set_language("it")
        assert i18n.rule_text(Illegal.of("P7", "fief_there")) == "Lì c'è già un feudo"
        assert i18n.rule_text(Illegal.of("P1", "not_in_region", region="Italia")).endswith("è in Italia")
        assert i18n.rule_text(Illegal.of("R3", "action_card_played", action="B")) == \
            "La carta Città è stata giocata al turno scorso"
        assert i18n.rule_text(Illegal.of("R3", "inactive_card_played")) == \
            "La carta Regioni inattive è stata giocata al turno scorso"
    finally:
        i18n.set_language("en")
    assert i18n.rule_text(Illegal.of("P7", "fief_there")) == "A fief is already there"
    assert i18n.rule_text(Illegal.of("P8", "castle_on_sea")) == "A castle would stand on the sea"
    assert i18n.rule_text(Illegal.of("R3", "action_card_played", action="B")) == \
        "The Cities card was played last round"
    assert i18n.rule_text(Illegal.words("", "Sending...")) == "Sending..."
