"""The post-game review (issue 48): a plainly bad move is the costliest, the analysis sees only
the seat's own view, it is deterministic, and a cancelled review resumes to the same result."""
from dataclasses import replace

import pytest

from gonzaga.ai import review as R
from gonzaga.ai.base import Bot
from gonzaga.ai.bots import scoring_placements
from gonzaga.ai.levels import MediumBot
from gonzaga.ai.match import play_game
from gonzaga.rules import Donate, GameRecord, Plan, Setup, apply, legal_plans, new_game, parse_action
from gonzaga.rules.view import HIDDEN

BUDGET = 120  # small: the tests run on a shared machine


class DonatesOnce(Bot):
    """Medium, except that it donates at its first turn where a placement worth 10 points or
    more is open (a plainly bad move: a donation is worth 3)."""

    name = "donates-once"

    def __init__(self, seed: int = 0):
        super().__init__(seed)
        self.medium = MediumBot(seed)
        self.donated_at_best: int | None = None

    def choose(self, view, seat):
        s = view.seats[seat]
        if view.phase == "place" and self.donated_at_best is None and s.plan is not None and s.fief is not None:
            opts = scoring_placements(view, seat, s.plan.region, s.plan.action)
            best = max((p for p, _ in opts), default=0)
            if best >= 10:
                self.donated_at_best = best
                return Donate(seat)
        return self.medium.choose(view, seat)


@pytest.fixture(scope="module")
def bad_game():
    bot = DonatesOnce(3)
    res = play_game([bot, "medium"], 4803)
    assert bot.donated_at_best is not None and bot.donated_at_best >= 10
    return res.record


@pytest.mark.parametrize("seed", [4801, 4802, 4803])
def test_a_donation_when_ten_points_were_open_loses_the_points_given_up(seed):
    """Seat 0 donates (3 points) at its first turn where a placement worth 10 or more (a sea
    league among them) was open. By the rules (X1-X3) it gave up that placement's points for
    3: the review must say so within its error and 1.5 points, name a placement as the better
    move and mark the donation among the three costliest. (Not always the costliest: in 4801
    and 4802 medium itself made a mistake as large, a wedding missing a league: docs/ai.md.)
    Before the leagues were counted as the rules score them, the review credited the donation
    with 4.5 of the league's 10 points (4801: lost 4.5, fourth)."""
    bot = DonatesOnce(3)
    record = play_game([bot, "medium"], seed).record
    given_up = bot.donated_at_best - 3
    rev = R.review_seat(record, 0, budget=BUDGET, seed=1)
    assert rev.complete and rev.total == len(rev.verdicts) > 10
    donations = [v for v in rev.verdicts if v.kind == "donate"]
    assert len(donations) == 1
    don = donations[0]
    assert don.flagged and abs(don.lost - given_up) <= don.error + 1.5, (don, given_up)
    assert R.kind_of(parse_action(don.best)) == "place"
    assert don in rev.costliest()[:3]


def test_the_donation_is_the_costliest_decision_of_the_game(bad_game):
    """In 4803 (16 points open) seat 0 made no other mistake near it: the donation is the
    costliest decision, lost 12.6 +- 0.9 (13 given up)."""
    rev = R.review_seat(bad_game, 0, budget=BUDGET, seed=1)
    top = rev.costliest()[0]
    assert top.kind == "donate" and top.flagged and top.lost >= 10


def test_the_analysis_is_handed_only_the_seats_view(bad_game, monkeypatch):
    """A spy on ``analyse``: every state it gets is the seat's own view (viewer set, no other
    seat's objective, no rival plan before the reveal)."""
    seen = []
    real = R.analyse

    def spy(v, seat, played, *a, **k):
        seen.append((v, seat))
        return real(v, seat, played, 8, *a[1:], **k)

    monkeypatch.setattr(R, "analyse", spy)
    R.review_seat(bad_game, 1, budget=8)
    assert seen
    hidden_plans = 0
    for v, seat in seen:
        assert v.viewer == seat
        for j, s in enumerate(v.seats):
            if j != seat:
                assert s.objective is None
                if v.phase == "plan" and s.plan is not None:
                    assert s.plan.region == HIDDEN
                    hidden_plans += 1
        assert all(s.deck_hidden for s in v.seats)
    assert hidden_plans > 0  # seat 0 plans first: seat 1 had a secret plan to be kept from


def test_the_verdict_does_not_change_with_what_the_seat_could_not_know(bad_game):
    """Change every rival secret (its objective, its plan not yet revealed) in the game's
    history: the verdict on seat 1's plan at that moment must be the same to the digit."""
    acts = bad_game.actions
    # seat 1's plan of round 2, and seat 0's plan just before it (still secret then)
    state = new_game(bad_game.config)
    for i, a in enumerate(acts):
        if isinstance(a, Plan) and a.seat == 1 and state.round == 2:
            mine = i
            break
        state = apply(state, a)
    rival = max(i for i in range(mine) if isinstance(acts[i], Plan) and acts[i].seat == 0)
    before = new_game(bad_game.config)
    for a in acts[:rival]:
        before = apply(before, a)
    other_plan = next(p for p in legal_plans(before, 0) if p != acts[rival])
    setup = acts[0]
    assert isinstance(setup, Setup)
    pool = [o.id for o in before.content.objectives if o.id not in setup.objectives]
    changed = list(acts[: mine + 1])
    changed[0] = replace(setup, objectives=(pool[0], setup.objectives[1]))
    changed[rival] = other_plan
    twin = GameRecord(bad_game.config, bad_game.seed, changed)

    def verdict(record):
        index, v, a = list(R.decisions(record, 1))[-1] if record is twin else \
            next(x for x in R.decisions(record, 1) if x[0] == mine)
        assert index == mine
        return R.analyse(v, 1, a, BUDGET, seed=7, index=index)

    assert verdict(bad_game) == verdict(twin)


def test_the_analysis_refuses_a_state_that_is_not_the_seats_view(bad_game):
    state = new_game(bad_game.config)
    state = apply(state, bad_game.actions[0])
    with pytest.raises(ValueError):
        R.analyse(state, 0, bad_game.actions[1], 8)


def test_a_cancelled_review_resumes_to_the_same_result_and_reads_back(bad_game):
    full = R.review_seat(bad_game, 1, budget=40, seed=2)
    calls = []
    part = R.review_seat(bad_game, 1, budget=40, seed=2, progress=lambda r: calls.append(len(r.verdicts)),
                         should_stop=lambda: len(calls) >= 3)
    assert not part.complete and len(part.verdicts) == 3
    resumed = R.review_seat(bad_game, 1, budget=40, seed=2, done=R.Review.from_json(part.to_json()))
    assert resumed.complete
    assert resumed.to_json() == full.to_json()
    other = R.review_seat(bad_game, 1, budget=40, seed=3, done=part)  # another seed: not a resume
    assert other.complete and other.seed == 3


def test_the_summary_counts_only_flagged_losses():
    def v(i, rnd, kind, lost, err):
        return R.Verdict(i, rnd, kind, "donate 0", "plan 0 italia A" if lost else "donate 0", 50, 50 + lost,
                         lost, err)
    rev = R.Review(0, "x", 10, 0, 5, [v(1, 1, "plan", 6.0, 1.0), v(2, 1, "place", 0.4, 0.5),
                                      v(3, 2, "donate", 8.0, 2.0), v(4, 3, "plan", 3.0, 4.0),
                                      v(5, 3, "wedding", 2.0, 1.0)])
    assert rev.lost_by() == {"plans": 6.0, "placements": 10.0}
    assert [x.index for x in rev.costliest()] == [3, 1, 5]
    assert rev.best_round() == 3 and rev.worst_round() == 2
    with pytest.raises(ValueError):
        R.Review.from_json({"format": "gonzaga-review", "version": 99})


def test_the_background_job_gives_the_review_in_order_and_resumes_after_a_cancel(bad_game):
    from gonzaga.ai.review_job import ReviewJob
    full = R.review_seat(bad_game, 1, budget=16, seed=4)
    ticks = iter(range(10 ** 6))
    job = ReviewJob(bad_game, 1, budget=16, seed=4, use_processes=False, clock=lambda: float(next(ticks)))
    assert job.seconds_left() is None and job.fraction == 0
    job.start()
    while len(job.review.verdicts) < 2:
        assert job.running and not job.failed
        job._future.exception(timeout=60)  # the decision being analysed, waited for
        job.poll()
    job.cancel()
    job.poll()
    kept = len(job.review.verdicts)
    assert 2 <= kept < job.review.total and not job.running
    assert job.seconds_left() is not None
    assert job.wait(120)
    job.close()
    assert job.review.to_json() == full.to_json()


def test_the_background_job_runs_in_a_worker_process(bad_game):
    from gonzaga.ai.review_job import ReviewJob
    job = ReviewJob(bad_game, 0, budget=8, seed=1)
    try:
        assert job.wait(300)
    finally:
        job.close()
    assert job.review.to_json() == R.review_seat(bad_game, 0, budget=8, seed=1).to_json()


def test_a_review_is_kept_and_read_back_and_a_damaged_file_is_ignored(bad_game, tmp_path, monkeypatch):
    from gonzaga.table import persistence as P
    from gonzaga.table import reviews
    monkeypatch.setattr(P, "finished_dir", lambda: tmp_path)
    rev = R.review_seat(bad_game, 0, budget=8, seed=1)
    assert reviews.load_review(bad_game, 0, 8, 1) is None
    path = reviews.store_review(rev)
    assert path is not None and reviews.load_review(bad_game, 0, 8, 1).to_json() == rev.to_json()
    assert reviews.load_review(bad_game, 1, 8, 1) is None
    path.write_text("{ not json", encoding="utf-8")
    assert reviews.load_review(bad_game, 0, 8, 1) is None
    reviews.store_review(rev)
    reviews.delete_reviews(rev.digest)
    assert reviews.load_review(bad_game, 0, 8, 1) is None


def test_the_review_command_prints_json_keeps_it_and_refuses_an_unfinished_game(bad_game, tmp_path, monkeypatch,
                                                                                capsys):
    import json

    from gonzaga import cli
    from gonzaga.rules import replay
    from gonzaga.rules.record import dumps
    monkeypatch.setenv("GONZAGA_HOME", str(tmp_path / "home"))
    game = tmp_path / "game.json"
    game.write_text(dumps(bad_game, replay(bad_game)), encoding="utf-8")
    assert cli.run(["review", str(game), "--seat", "0", "--budget", "8", "--seed", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {**R.review_seat(bad_game, 0, budget=8, seed=1).to_json(), **{k: out[k] for k in
                   ("file", "lost", "best_round", "costliest")}}
    kept = list((tmp_path / "home").rglob("review-*.json"))
    assert len(kept) == 1
    half = GameRecord(bad_game.config, bad_game.seed, bad_game.actions[:20])
    game.write_text(dumps(half, replay(half)), encoding="utf-8")
    assert cli.run(["review", str(game), "--json"]) == 2
    assert "not over" in capsys.readouterr().err


def test_deleting_a_finished_game_deletes_its_reviews(tmp_path, monkeypatch):
    import shutil
    from pathlib import Path

    from gonzaga.table import finished
    from gonzaga.table import persistence as P
    from gonzaga.table import reviews
    monkeypatch.setattr(P, "finished_dir", lambda: tmp_path)
    game = tmp_path / "finished-x.json"
    shutil.copyfile(Path(__file__).resolve().parent.parent / "saves" / "v1-finished.json", game)
    record = P.read_save(game).record
    rev = R.Review(0, R.record_digest(record), 8, 0, 1)
    other = R.Review(0, "0123456789abcdef", 8, 0, 1)  # another game's: stays
    kept, theirs = reviews.store_review(rev), reviews.store_review(other)
    assert kept is not None and kept.exists() and theirs is not None
    finished.delete_finished(game)
    assert not game.exists() and not kept.exists() and theirs.exists()
