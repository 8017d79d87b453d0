"""The command-line tools: simulate, replay, legal, bench; bad input gives one line and exit 2."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from gonzaga.ai.match import play_game
from gonzaga.cli import ELSEWHERE, resolve, run
from gonzaga.rules import GameConfig, GameRecord


def call(capsys, *argv):
    code = run(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_json_fields(capsys):
    code, out, err = call(capsys, "simulate", "--seats", "2", "--bots", "greedy,random", "--games", "6",
                          "--seed", "3", "--json")
    assert code == 0, err
    d = json.loads(out)
    for key in ("games", "seats", "bots", "wins", "mean_score", "rounds", "donation_rate",
                "illegal_actions", "decision_ms"):
        assert key in d
    assert d["games"] == 6 and d["illegal_actions"] == 0
    assert abs(sum(d["wins"].values()) - 6) < 1e-9
    assert set(d["rounds"]) == {"min", "median", "max", "histogram"}
    assert set(d["decision_ms"]["greedy"]) == {"p50", "p95"}
    assert sum(d["rounds"]["histogram"].values()) == 6


def test_simulate_seats_rotate_across_games(capsys):
    _, out1, _ = call(capsys, "simulate", "--seats", "2", "--bots", "greedy,random", "--games", "2", "--json")
    _, out2, _ = call(capsys, "simulate", "--seats", "2", "--bots", "random,greedy", "--games", "2", "--json")
    a, b = json.loads(out1), json.loads(out2)
    assert a["wins"]["greedy"] + a["wins"]["random"] == 2 and b["games"] == 2


@pytest.mark.parametrize("argv", [
    ["simulate", "--seats", "5", "--bots", "a,b,c,d,e"],
    ["simulate", "--seats", "2", "--bots", "greedy"],
    ["simulate", "--seats", "2", "--bots", "greedy,nobody"],
    ["simulate", "--seats", "two", "--bots", "greedy,greedy"],
    ["simulate", "--seats", "2", "--bots", "greedy,greedy", "--scenario", "Dante"],
    ["replay", "/nonexistent/file.json"],
    ["legal"],
    ["frobnicate"],
])
def test_bad_arguments_one_line_exit_2(capsys, argv):
    code, out, err = call(capsys, *argv)
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.fixture
def saved_game(tmp_path):
    res = play_game(["greedy", "greedy", "random"], seed=5, config=GameConfig(seats=3))
    full = tmp_path / "full.json"
    full.write_text(json.dumps(res.record.to_json(res.state)))
    # a mid-game position: cut the record at the start of round 4's placements
    from gonzaga.rules import replay
    n = next(k for k in range(len(res.record.actions))
             if replay(res.record, upto=k).round == 4 and replay(res.record, upto=k).phase == "place")
    cut = GameRecord(res.record.config, res.record.seed, res.record.actions[:n])
    mid = tmp_path / "mid.json"
    mid.write_text(json.dumps({"record": cut.to_json(replay(cut))}))
    return res, full, mid


def test_replay_reproduces_and_prints_scores(capsys, saved_game):
    res, full, _ = saved_game
    code, out, err = call(capsys, "replay", str(full), "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["reproduced"] and [r["score"] for r in d["scores"]] == list(res.state.scores())
    assert d["winners"] == list(res.state.winners)


def test_replay_refuses_tampered_and_illegal_records(capsys, saved_game, tmp_path):
    _, full, _ = saved_game
    d = json.loads(full.read_text())
    d["summary"]["digest"] = "0" * 16
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(d))
    code, _, err = call(capsys, "replay", str(bad))
    assert code == 2 and "does not reproduce" in err
    d = json.loads(full.read_text())
    d["actions"][1] = d["actions"][1].replace("plan 0", "plan 9")
    bad.write_text(json.dumps(d))
    code, _, err = call(capsys, "replay", str(bad))
    assert code == 2 and "action 2" in err
    bad.write_text('{"format": "gonzaga-record", "version": 1, "config":')
    code, _, err = call(capsys, "replay", str(bad))
    assert code == 2 and "not valid JSON" in err
    bad.write_text(json.dumps({"format": "gonzaga-record", "version": 99}))
    code, _, err = call(capsys, "replay", str(bad))
    assert code == 2 and "newer" in err


def test_legal_counts_every_plan(capsys, saved_game):
    _, _, mid = saved_game
    code, out, err = call(capsys, "legal", str(mid), "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["phase"] == "place" and len(d["seats"]) == 1
    seat = d["seats"][0]
    assert len(seat["placements"]) == 3 * 5  # Colombo-like 3-seat tiles: 4 regions + inactive, x A/B/C
    assert seat["total"] == sum(seat["placements"].values()) > 0


def test_bench_prints_figures(capsys):
    code, out, err = call(capsys, "bench", "--json", "--quick", "--no-ui")
    assert code == 0, err
    d = json.loads(out)
    assert d["placement_query_us"] > 0 and d["all_plans_ms"] > 0 and d["playouts_per_s"] > 0


def test_module_entry_point_runs_a_tool():
    p = subprocess.run([sys.executable, "-m", "gonzaga", "simulate", "--seats", "2", "--bots",
                        "random,random", "--games", "1", "--json"], capture_output=True, text=True)
    assert p.returncode == 0 and json.loads(p.stdout)["games"] == 1


def test_replay_refuses_a_record_from_another_board(capsys, saved_game, tmp_path):
    _, full, _ = saved_game
    d = json.loads(full.read_text())
    assert d["map"]["digest"]
    d["map"]["digest"] = "000000000000"
    d["map"]["name"] = "Atlantis"
    bad = tmp_path / "othermap.json"
    bad.write_text(json.dumps(d))
    code, _, err = call(capsys, "replay", str(bad))
    assert code == 2 and "another board" in err


def test_replay_of_an_earlier_edition_of_the_board_checks_every_move(capsys, saved_game, tmp_path):
    """Same board name, other digest: replayed move by move on this board."""
    _, full, _ = saved_game
    d = json.loads(full.read_text())
    d["map"]["digest"] = "000000000000"
    old = tmp_path / "earlier.json"
    old.write_text(json.dumps(d))
    code, _, _ = call(capsys, "replay", str(old))
    assert code == 0
    d["actions"][-1] = "place 0 f10 999,999 r0"  # a move off this board
    old.write_text(json.dumps(d))
    code, _, err = call(capsys, "replay", str(old))
    assert code == 2 and "illegal" in err


def test_output_into_a_closed_pipe_is_quiet(saved_game):
    """``gonzaga replay FILE --json | head -0``: no BrokenPipeError traceback."""
    _, full, _ = saved_game
    p = subprocess.Popen([sys.executable, "-m", "gonzaga", "replay", str(full), "--json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.close()  # the reader is gone before anything is written
    err = p.stderr.read().decode()
    assert p.wait(timeout=120) == 0
    assert "Traceback" not in err and "BrokenPipe" not in err and err == ""


def test_hostile_record_values_give_one_line(capsys, saved_game, tmp_path):
    """Values JSON allows and the code does not expect: one line, exit 2, never a traceback."""
    _, full, _ = saved_game
    text = full.read_text()
    seed = json.loads(text)["seed"]
    bad = tmp_path / "bad.json"
    for literal, says in (("Infinity", "not a usable number"), ("1e999", "not a usable number"),
                          ("9" * 5000, "not a usable number"), ("[" * 5000 + "]" * 5000, "nested"),
                          ('"12"', "seed"), ("-3", "seed")):
        bad.write_text(text.replace(f'"seed": {seed}', f'"seed": {literal}', 1))
        code, _, err = call(capsys, "replay", str(bad))
        assert code == 2 and says in err and err.count("\n") == 1, (literal, err)
    d = json.loads(text)
    d["config"]["scenario"] = "Atlantis"
    bad.write_text(json.dumps(d))
    code, _, err = call(capsys, "legal", str(bad))
    assert code == 2 and "scenario 'Atlantis'" in err


def test_every_command_run_elsewhere_names_a_function():
    # The table holds "module:function" strings, imported when the command runs: a typo would
    # only show when someone runs that command, so every one is resolved here.
    assert set(ELSEWHERE) == {"render-map", "serve", "netplay-check", "accounts"}
    for name, target in ELSEWHERE.items():
        assert callable(resolve(target)), name


def test_replay_loads_neither_the_server_nor_the_checks_nor_pygame():
    heavy = ("gonzaga.net.server", "gonzaga.net.serve", "gonzaga.net.check", "websockets", "pygame")
    code = ("import sys; from gonzaga.cli import run; "
            "code = run(['replay', 'saves/v2-solo-round4-placing.json', '--json']); "
            f"print(code, sorted(m for m in {heavy!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parent.parent)
    assert out.stdout.strip().splitlines()[-1] == "0 []"
