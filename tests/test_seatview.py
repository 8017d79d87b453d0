"""A game's face (table/seatview.py): what a screen may hold of a game, and nothing more."""
from __future__ import annotations

import pytest

from gonzaga.rules import Plan, Setup, legal_plans
from gonzaga.rules.view import HIDDEN
from gonzaga.table.seats import SeatSpec
from gonzaga.table.seatview import GameFace, face_of
from gonzaga.table.session import Session


def hotseat_with_ai():
    return Session.new([SeatSpec("Ann", "human", colour="red"), SeatSpec("Bob", "human", colour="blue"),
                        SeatSpec("Cy", "ai", "greedy", "green")], 918273645)


def test_the_face_shows_no_secret_and_hands_out_only_the_seats_played_here():
    s = hotseat_with_ai()
    face = face_of(s)
    assert all(x.objective is None and x.deck_hidden for x in face.public().seats)
    assert not any(hasattr(face, name) for name in ("state", "record", "authority", "table", "session"))
    ann = face.seat_view(0)
    assert ann.view().seats[0].objective == s.state.seats[0].objective  # her own
    assert ann.view().seats[1].objective is None
    with pytest.raises(LookupError):
        face.seat_view(2)  # an AI seat has no face here
    assert face.view(2) == face.public()
    assert str(s.record.seed) not in face.view_key()


def test_a_seat_submits_only_its_own_moves():
    s = hotseat_with_ai()
    face = face_of(s)
    bob_plan = next(p for p in legal_plans(s.state, 1) if not p.king)
    why = face.seat_view(0).submit(bob_plan)
    assert why is not None and why.rule == "R5" and s.state.seats[1].plan is None
    assert face.seat_view(1).submit(bob_plan) is None and s.state.seats[1].plan == bob_plan


def test_the_public_record_hides_the_setup_and_the_plans_before_their_reveal():
    s = hotseat_with_ai()
    face = face_of(s)
    bob_plan = next(p for p in legal_plans(s.state, 1) if not p.king)
    face.seat_view(1).submit(bob_plan)
    acts = face.public_actions()
    setup = acts[0]
    assert isinstance(setup, Setup) and setup.decks == () and setup.objectives == ()
    assert acts[-1] == Plan(1, HIDDEN, HIDDEN, False)
    assert face.seat_view(1).actions()[-1] == bob_plan  # Bob knows his own
    assert face.seat_view(0).actions()[-1] == Plan(1, HIDDEN, HIDDEN, False)


def test_a_seat_no_longer_played_here_is_drawn_public():
    """Online, a player who resigned hands the seat to the AI while its hand may be on screen:
    the screen then draws the public view (it crashed asking for the seat's face)."""
    s = hotseat_with_ai()
    face = GameFace(s)
    assert face.view(0).seats[0].objective is not None
    s.seats[0] = SeatSpec("Ann", "ai", "greedy", "red")
    assert not face.is_human(0) and face.view(0) == face.public()


def test_the_record_only_once_the_game_is_over():
    s = hotseat_with_ai()
    with pytest.raises(LookupError):
        face_of(s).finished_record()


def test_a_replay_gives_out_its_record_only_when_the_game_watched_is_over():
    """The review and the end chart ask a face for the whole record: a replay of a finished
    game gives it at any step, one of a game still going never (its objectives are secret)."""
    from pathlib import Path

    from gonzaga.table.replay import replay_of_save
    saves = Path(__file__).resolve().parent.parent / "saves"
    going, _ = replay_of_save(saves / "v2-solo-round4-placing.json", None)
    with pytest.raises(LookupError):
        going.finished_record()
    over, _ = replay_of_save(saves / "v1-finished.json", None)
    over.seek(over.first_step)
    assert over.finished_record().actions


def test_removing_a_save_that_is_already_gone_is_not_an_error(tmp_path):
    """Deleting a game twice (two clicks, another window) leaves nothing to report."""
    from gonzaga.table import persistence
    p = tmp_path / "gone.json"
    p.write_text("{}")
    persistence.remove_durably(p)
    assert not p.exists()
    persistence.remove_durably(p)
