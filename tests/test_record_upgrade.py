"""Records of format 1 (the old card numbering) are upgraded, never refused (D1, R4)."""
import pytest

from gonzaga.rules import GameConfig, GameRecord, Place, Plan, Setup, apply, new_game
from gonzaga.rules.record import RECORD_VERSION, RecordError, replay, upgrade

DECK = tuple(range(10, 130, 10))


@pytest.fixture(scope="module")
def content():
    from gonzaga.rules import load_content
    return load_content()


def _v1_record(content, colours, plans):
    """A version 1 record of one round in which both seats turn up fief 10 and plan ``plans``,
    played with the old numbering (green 3, blue 4) and placed in that old order."""
    cfg = GameConfig(seats=2, colours=colours, scenario="Cervantes", numbering="v1")
    setup = Setup("Cervantes", 0, (DECK, DECK), tuple(o.id for o in content.objectives[:2]))
    st = apply(new_game(cfg, content), setup)
    actions = [setup]
    for seat, plan in enumerate(plans):
        a = Plan(seat, *plan)
        st = apply(st, a)
        actions.append(a)
    from gonzaga.rules import legal_actions
    for _ in range(2):
        seat = st.to_act()[0]
        a = next(x for x in legal_actions(st, seat) if isinstance(x, Place))
        st = apply(st, a)
        actions.append(a)
    old_cfg = GameConfig(seats=2, colours=colours, scenario="Cervantes")
    return GameRecord(old_cfg, 1, actions, None, version=1), st


@pytest.mark.rule("D1", "R4")
def test_a_tie_decided_by_the_old_numbering_keeps_it(content):
    # green fief 10 was card 13 (first), now 14 (second): the order changed, so the game keeps "v1"
    rec, played = _v1_record(content, ("green", "blue"), [("hispania", "B"), ("francia", "B")])
    up = upgrade(rec, content)
    assert up.version == RECORD_VERSION and up.config.numbering == "v1"
    assert replay(rec, content).scores() == played.scores()


@pytest.mark.rule("D1")
def test_a_game_without_such_a_tie_takes_the_printed_numbering(content):
    # red and yellow keep their digits (1 and 2): nothing changes
    rec, played = _v1_record(content, ("red", "yellow"), [("hispania", "B"), ("francia", "B")])
    up = upgrade(rec, content)
    assert up.config.numbering == "printed"
    assert replay(up, content).scores() == played.scores()


@pytest.mark.rule("D1")
def test_green_and_blue_with_different_actions_take_the_printed_numbering(content):
    rec, _ = _v1_record(content, ("green", "blue"), [("hispania", "A"), ("francia", "B")])
    assert upgrade(rec, content).config.numbering == "printed"


@pytest.mark.rule("D1", "R4")
def test_a_game_saved_between_the_reveal_and_the_first_placement_keeps_its_turn_order(content):
    """Both numberings replay such a record (no placement names a seat yet), but they order the
    tie differently: the game keeps the old numbering, so the seat that was to place still is."""
    cfg = GameConfig(seats=2, colours=("green", "blue"), scenario="Cervantes")
    setup = Setup("Cervantes", 0, (DECK, DECK), tuple(o.id for o in content.objectives[:2]))
    rec = GameRecord(cfg, 1, [setup, Plan(0, "hispania", "B"), Plan(1, "francia", "B")], None, version=1)
    up = upgrade(rec, content)
    assert up.config.numbering == "v1"
    st = replay(rec, content)
    assert st.phase == "place" and st.order == (0, 1)  # green card 13 before blue card 14, as played
    printed = replay(GameRecord(cfg, 1, rec.actions), content)
    assert printed.order == (1, 0)  # blue card 13 before green card 14 under D1


# ---------------------------------------------------------------- board editions

EDITION = "f66b124e16d2"  # the board before Britannia became an island (save format 1 games)


@pytest.mark.rule("D2")
def test_a_kept_edition_of_the_board_loads_with_its_recorded_digest(content):
    from gonzaga.rules.content import edition_for
    old = edition_for({"name": "Europa", "digest": EDITION}, content)
    assert old is not None and old.map_id["digest"] == EDITION
    assert old.terrain[(3, 11)] == "land" and content.terrain[(3, 11)] == "sea"  # Dover, then and now
    assert old.current() is content and content.current() is content
    assert edition_for({"name": "Europa", "digest": content.map_id["digest"]}, content) is content
    assert edition_for({"name": "Europa", "digest": "0123456789ab"}, content) is None  # not kept
    assert edition_for({"name": "../../..", "digest": EDITION}, content) is None  # never a path


@pytest.mark.rule("D2")
def test_a_kept_edition_in_a_folder_of_another_digest_is_not_that_board(content, tmp_path):
    """A folder renamed (or hand-made) to answer for a digest its edition is not: refused, so that
    a record is never replayed on a board other than the one it names."""
    import shutil
    from gonzaga.rules import load_content
    from gonzaga.rules.content import edition_for
    maps = tmp_path / "map"
    shutil.copytree(content.directory, maps)
    other = "0123456789ab"
    (maps / "editions" / f"Europa-{EDITION}").rename(maps / "editions" / f"Europa-{other}")
    copy = load_content(maps)
    assert edition_for({"name": "Europa", "digest": other}, copy) is None
    assert edition_for({"name": "Europa", "digest": EDITION}, copy) is None  # no longer kept there


@pytest.mark.rule("D2")
def test_an_old_game_that_used_the_land_bridge_finishes_on_its_own_board(content):
    """saves/v1-solo-round5-placing.json placed a fief on Dover's hex: illegal on the island
    board (P1), so it is replayed and continued on the kept edition it was played on."""
    import json
    from pathlib import Path
    from gonzaga.rules.record import _replay, content_of
    d = json.loads((Path(__file__).parent.parent / "saves" / "v1-solo-round5-placing.json").read_text())
    rec = GameRecord.from_json(d["record"])
    assert any(a.to_text().startswith("place 1 f100 3,11") for a in rec.actions)
    with pytest.raises(RecordError):
        _replay(upgrade(rec, content_of(rec, content)), content)  # not on today's board
    st = replay(rec, content)
    assert st.content.map_id["digest"] == EDITION
    assert list(st.scores()) == d["record"]["summary"]["scores"]
