"""A mutation run: realistic one-line bugs in the rules, the session and the saves, each run
against the tests, to show that a test fails when a rule is broken.

    .venv/bin/python tools/mutate.py                 # every mutant, 2 at a time; prints a score
    .venv/bin/python tools/mutate.py --json          # the same, with a JSON summary on stdout
    .venv/bin/python tools/mutate.py --only W4,P7    # mutants breaking these rules (or named so)
    .venv/bin/python tools/mutate.py --layer rules   # the mutants of one layer (rules, authority, saves, network)
    .venv/bin/python tools/mutate.py --list          # the mutants, without running them
    .venv/bin/python tools/mutate.py --issue 45 --no-suite   # issue 45's mutants, each against its layer's tests

Each mutant is one exact snippet of a source file, its replacement, and the rule id it breaks
(the spec's clause ids; ``E-save`` and ``E-view`` name the parts of spec E that the tests mark,
see tests/test_rule_ids.py). Every file git tracks (as it is in the working tree), and the spec
beside the repository, is copied to a temporary folder per job, so the working tree is never
touched. For each mutant:

1. the tests marked ``@pytest.mark.rule(<its id>)`` run (this file is loaded as a pytest plugin
   that selects them); one failing: *killed by its rule's test*;
2. otherwise the fast part of the suite runs (no packaging, scene, render or AI-strength tests),
   stopping at the first failure: a failure is *killed by another test* (a snapshot, say),
   none is *survived*.

When no test of the mutant's own layer failed in step 1, the tests of that layer (``LAYER_TESTS``)
run before step 2: a failure there is *killed by its layer's test*. Layers: ``rules``
(gonzaga/rules), ``authority`` (gonzaga/table: the Table, who may act, the AI pacing, observers,
the store, the session, take-backs, hints), ``saves`` (persistence and the save schema) and
``network`` (gonzaga/net) and ``words`` (gonzaga/words); the summary gives, per layer, the share
of mutants killed by a test of their own layer (printed, and under ``layers`` in --json).
``--no-suite`` runs each mutant against its layer's tests only (they alone decide that share).

Tests that already fail on the unmutated copy (another change in progress) are left out of
every run and listed. The goal is every mutant killed by a test marked with its rule, and at
least 95% of each layer's mutants killed by a test of that layer.
"""
from __future__ import annotations

import argparse
import fnmatch
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from queue import Empty, Queue

ROOT = Path(__file__).resolve().parent.parent
SPEC = Path(os.environ.get("GONZAGA_SPEC") or ROOT.parent / "shared" / "design" / "spec.md")
SLOW = ("test_package", "test_scenes", "test_scenes_i18n", "test_render", "test_app_cli", "test_monkey",
        "test_layout_walk", "test_zoom_tooltips", "test_tutorial", "test_replay_view", "test_confirm_and_curtains",
        "test_online_scenes", "test_netplay_check", "test_net_server", "test_net_client", "test_audio",
        "test_motion")  # screens, packaging and networking: not where a rule bug shows first
SUITE = ["tests", *(f"--ignore=tests/{name}.py" for name in SLOW),
         "-k", "not smoke and not D5_greedy"]  # the fast part of the suite
TIMEOUT = [600]  # seconds for one pytest run (--timeout); a mutant that hangs the suite is killed by it
FULL_SUITE = [True]  # False (--no-suite): stop after the layer's tests; "survived" then means by its layer


@dataclass(frozen=True)
class Mutant:
    rule: str
    file: str
    original: tuple  # the snippet; alternatives for a file being rewritten: the first found once is used
    replacement: tuple
    what: str

    @property
    def name(self) -> str:
        return f"{self.rule}:{Path(self.file).stem}:{self.what}"

    def apply(self, text: str):
        """The mutated text, or None when no snippet occurs exactly once."""
        for a, b in zip(self.original, self.replacement):
            if text.count(a) == 1:
                return text.replace(a, b)
        return None


def M(rule, file, original, replacement, what):
    alts = (original,) if isinstance(original, str) else tuple(original)
    reps = (replacement,) if isinstance(replacement, str) else tuple(replacement)
    assert len(alts) == len(reps)
    return Mutant(rule, file, alts, reps, what)


L, P, B, E, S, V, PO, ST = ("gonzaga/rules/legality.py", "gonzaga/rules/placement.py", "gonzaga/rules/board.py",
                            "gonzaga/rules/engine.py", "gonzaga/rules/scoring.py", "gonzaga/rules/view.py",
                            "gonzaga/rules/playout.py", "gonzaga/rules/state.py")
RD = "gonzaga/rules/rounds.py"
SESSION, SAVES, REC = "gonzaga/table/session.py", "gonzaga/table/persistence.py", "gonzaga/rules/record.py"
PACING, CORE, SEATS = "gonzaga/table/pacing.py", "gonzaga/table/core.py", "gonzaga/table/seats.py"
OBS, STORE = "gonzaga/table/observers.py", "gonzaga/table/store.py"
ROOMS, ADMIT, NSTORE, ACKLOG = ("gonzaga/net/rooms.py", "gonzaga/net/admission.py", "gonzaga/net/storage.py",
                                "gonzaga/net/acklog.py")
TB, HINTS, SCHEMA = "gonzaga/table/takeback.py", "gonzaga/table/hints.py", "gonzaga/table/save_schema.py"
SERVER, PROTO, ENG = "gonzaga/net/server.py", "gonzaga/net/protocol.py", E
UPKEEP = "gonzaga/net/upkeep.py"
GATE = "gonzaga/net/gate.py"
TIMERS, SOCIAL, TLS, INVITE, CLIENT = ("gonzaga/net/timers.py", "gonzaga/net/social.py", "gonzaga/net/tls.py",
                                       "gonzaga/net/invite.py", "gonzaga/net/client.py")
CLEAN, VCODEC, ENDGAME, MYGAMES = ("gonzaga/net/cleantext.py", "gonzaga/net/viewcodec.py", "gonzaga/net/endgame.py",
                                   "gonzaga/net/mygames.py")
FINISHED, HISTORY, STATS = "gonzaga/table/finished.py", "gonzaga/table/history.py", "gonzaga/table/stats.py"
I18N, CATALOG = "gonzaga/words/i18n.py", "gonzaga/words/catalog.py"
ACCOUNTS, TURNCLOCK, LISTING = "gonzaga/net/accounts.py", "gonzaga/net/turnclock.py", "gonzaga/net/listing.py"
TYPED, SEATNEWS, WIRE = "gonzaga/net/typed.py", "gonzaga/net/seatnews.py", "gonzaga/net/wire_bytes.py"

# The layers of the summary: a mutant's layer is its file's folder (gonzaga/rules, gonzaga/table:
# the authority, gonzaga/net: the network), except the save modules, which are the saves' layer
# wherever they live; a layer's tests are these modules (none that take minutes: the server's
# socket tests, test_net_server and test_online_durability, stay out).
LAYER_FOLDERS = {"rules": "rules", "table": "authority", "net": "network", "words": "words"}
LAYER_MODULES = {"saves": ("persistence", "save_schema")}
LAYER_TESTS = {
    "rules": ("test_rules_*", "test_fiefs_and_actions", "test_record_upgrade", "test_golden_and_perft",
              "test_random_play", "test_map_data", "test_audit_rules", "test_behaviours_rules"),
    "authority": ("test_table", "test_table_audit", "test_session", "test_takeback", "test_takeback_save",
                  "test_hints", "test_audit_session", "test_secret_views", "test_stats", "test_finished_games",
                  "test_behaviours_table"),
    "saves": ("test_saves", "test_hostile_files", "test_disk_faults", "test_crash_safety", "test_takeback_save",
              "test_audit_saves", "test_behaviours_saves"),
    "network": ("test_net_protocol", "test_audit_net", "test_online_admission", "test_online_resume",
                "test_net_storage", "test_online_play", "test_behaviours_net", "test_accounts", "test_online_seats",
                "test_online_servers"),
    "words": ("test_i18n_catalogs", "test_own_words", "test_plain_words", "test_behaviours_words"),
}


def layer_of(file: str) -> str:
    """The layer of a source file: rules, authority, saves, network, or other."""
    path = Path(file)
    for layer, stems in LAYER_MODULES.items():
        if path.stem in stems:
            return layer
    for folder, layer in LAYER_FOLDERS.items():
        if folder in path.parts[:-1]:
            return layer
    return "other"


def test_layers(nodeid: str) -> set:
    """The layers whose tests include this test (``tests/test_x.py::test_y``)."""
    stem = Path(nodeid.split("::")[0]).stem
    return {layer for layer, pats in LAYER_TESTS.items() if any(fnmatch.fnmatch(stem, p) for p in pats)}


MUTANTS = [
    # ---------------------------------------------------------------- setup
    M("S1", E, "if not 2 <= config.seats <= 4:", "if not 1 <= config.seats <= 4:", "a one-seat game accepted"),
    M("S1", ST, "RINGS_PER_SEAT = 6  # S1", "RINGS_PER_SEAT = 5  # S1", "five rings"),
    M("S2", E, "scenario = rng.choice([s.name for s in content.scenarios_for(cfg.seats)])",
      "scenario = content.scenarios_for(cfg.seats)[0].name", "scenario never drawn"),
    M("S2", L, "if sc.seats != state.config.seats:", "if sc.seats > 4:", "a tile for another seat count"),
    M("S3", L, "if region not in state.region_cards():", "if region not in state.content.region_ids + ('inactive',):",
      "an inactive region's card played"),
    M("S4", L, "if sorted(d) != sorted(state.content.fiefs):", "if len(d) != len(state.content.fiefs):",
      "a deck with a fief twice"),
    M("S4", V, "        changes = dict(deck=tuple(sorted(s.deck)), deck_hidden=True)\n        if i != seat:",
      "        changes = dict(deck_hidden=True)\n        if i != seat:",
      "deck order shown in a view"),
    M("S5", E, "objectives = rng.sample([o.id for o in content.objectives], cfg.seats)",
      "objectives = [rng.choice([o.id for o in content.objectives]) for _ in range(cfg.seats)]",
      "two seats may get one objective"),
    M("S5", V, '            changes["objective"] = None\n', "            pass\n", "other objectives shown in a view"),
    # ---------------------------------------------------------------- the round
    M("R1", E, "seats = tuple(evolve(s, fief=s.deck[0], deck=s.deck[1:], plan=None) for s in state.seats)",
      "seats = tuple(evolve(s, fief=s.deck[-1], deck=s.deck[:-1], plan=None) for s in state.seats)",
      "bottom card turned up"),
    M("R1", L, "if a.fief != s.fief:", "if a.fief not in state.content.fiefs:", "another fief placed"),
    M("R2", L, "if state.seats[a.seat].plan is not None:", "if False:", "a seat plans twice"),
    M("R2", V, '            if state.phase == "plan" and s.plan is not None:',
      '            if state.phase == "place" and s.plan is not None:',
      "plans shown before the reveal"),
    M("R3", L, "if region in s.unavailable:", "if region in s.unavailable and king:", "last round's region card again"),
    M("R3", L, "if action in s.unavailable:", "if action in s.unavailable and action == 'C':",
      "last round's action card again"),
    M("R4", RD, "return (0 if king else 1, ACTION_RANK[action], card)",
      "return (0 if king else 1, card, ACTION_RANK[action])", "kings ordered by card first"),
    M("R4", RD, 'ACTION_RANK = {"A": 0, "B": 1, "C": 2}', 'ACTION_RANK = {"A": 1, "B": 0, "C": 2}',
      "Cities before Harbors"),
    M("R4", RD, "return (0 if king else 1, ACTION_RANK[action], card)",
      "return (0 if king else 1, ACTION_RANK[action], -card)", "higher card first"),
    M("R4", L, "if state.order[state.turn] != seat:", "if seat not in state.order:", "a seat acts out of turn"),
    M("R5", E, "return evolve(state, turn=state.turn + 1)", "return evolve(state, turn=state.turn + 1, order=state.order[::-1])",
      "turn order reversed mid-round"),
    M("R6", L, "return None  # R6: donation is always allowed", "return None if state.seats[seat].rings else "
      "Illegal.of('R6', 'unknown_action')", "donation refused without rings"),
    # ---------------------------------------------------------------- placing
    M("P1", L, "if not mask & board.region_mask(region, state.flourishing):", "if not mask & board.land:",
      "check: any region"),
    M("P1", P, "m &= board.region_touch(o, region_mask)  # P1", "m &= o.ok  # P1", "generator: any region"),
    M("P1", B, "t |= shift(region_mask, off)", "t |= shift(region_mask, -off)", "region touch shifted the wrong way"),
    M("P1", B, "if rid not in flourishing:", "if rid in flourishing:", "Inactive Regions card means flourishing ones"),
    M("P2", L, 'if action == "A" and (h == 0 or c > 0):', 'if action == "A" and h == 0:', "check: Harbors with a city"),
    M("P2", P, "m &= o.harbor_touch & ~o.city_touch", "m &= o.harbor_touch", "generator: Harbors with a city"),
    M("P3", L, 'if action == "B" and h > 0:', 'if action == "B" and c == 0 and h > 0:',
      "check: Cities with harbors"),
    M("P3", P, "m &= ~o.harbor_touch", "m &= o.city_touch", "generator: Cities never on empty hexes"),
    M("P4", L, 'if action == "C" and (h == 0 or c == 0):', 'if action == "C" and h == 0 and c == 0:',
      "check: Alliance with one kind of site"),
    M("P4", P, "m &= o.harbor_touch & o.city_touch", "m &= o.harbor_touch | o.city_touch",
      "generator: Alliance with one kind of site"),
    M("P5", S, "covered = new_mask & board.sites", "covered = new_mask & board.sites & ~state.all_rings",
      "a site under a ring scores nothing"),
    M("P6", L, "if a is None or mask & board.valid != mask:", "if a is None:", "check: fief off the map"),
    M("P6", L, "if not board.on_board(h):", "if h is None:", "ring off the map"),
    M("P7", L, "if mask & state.all_fiefs:", "if mask & state.seats[seat].fief_mask:", "check: on a rival's fief"),
    M("P7", L, "if mask & state.seats[seat].ring_mask:", "if mask & state.all_rings:", "check: rival's ring refused"),
    M("P7", L, "if mask & state.seats[seat].ring_mask:", "if mask & state.seats[seat].fief_mask:",
      "check: on its own ring"),
    M("P7", P, "occupied = fiefs_on_board | own_rings", "occupied = fiefs_on_board", "generator: on its own ring"),
    M("P8", L, "if not board.land >> (a + off) & 1:", "if not board.valid >> (a + off) & 1:", "check: castle at sea"),
    M("P8", B, "ok &= shift(board.land, off)", "ok &= shift(board.valid, off)", "generator: castle at sea"),
    M("P9", L, "if board.barrier[d] >> (a + off) & 1:", "if board.barrier[d] >> a & 1:",
      "check: barrier tested at the anchor only"),
    M("P9", B, "ok &= ~shift(board.barrier[d], off)", "ok &= ~board.barrier[d]", "generator: barrier not shifted"),
    M("P10", L, "if not 0 <= a.rotation <= 5:", "if not 0 <= a.rotation <= 6:", "rotation 6"),
    M("P10", P, "res.sort(key=lambda p: (p[0][1], p[0][0], p[1]))",
      "res.extend((h, (k + 3) % 6) for h, k in list(res))\n    res.sort(key=lambda p: (p[0][1], p[0][0], p[1]))",
      "a symmetric placement listed twice"),
    # ---------------------------------------------------------------- weddings
    M("W1", L, '    if plan.action != "C":', '    if plan.action == "A":', "a wedding under Cities"),
    M("W1", PO, 'wed = 1 if plan.action == "C" and s.rings > 0 else 0', "wed = 1 if s.rings > 0 else 0",
      "playout weds without Alliance"),
    M("W2", L, "if not any(in_region):", "if not any(in_region) and len(a.rings) == 2:",
      "check: a single ring anywhere"),
    M("W2", L, "first = board.region_mask(region, state.flourishing) & open_hexes", "first = open_hexes",
      "generator: first ring anywhere"),
    M("W2", PO, "first = list(bits(board.region_mask(s.plan.region, state.flourishing) & open_hexes))",
      "first = list(bits(open_hexes))", "playout: first ring anywhere"),
    M("W3", L, "if not any(in_region):", "if not all(in_region):", "check: second ring in the region too"),
    M("W3", L, "if len(a.rings) == 2 and not hexgrid.are_adjacent(*a.rings):",
      "if len(a.rings) == 2 and hexgrid.distance(*a.rings) > 2:", "check: second ring two hexes away"),
    M("W3", L, "if not 1 <= len(a.rings) <= 2:", "if not 1 <= len(a.rings) <= 3:", "three rings"),
    M("W4", L, "if state.seats[seat].fief_mask >> i & 1:", "if state.all_fiefs >> i & 1:",
      "ring refused on a rival's fief"),
    M("W4", L, "if state.seats[seat].fief_mask >> i & 1:", "if False:", "ring on its own fief"),
    M("W4", L, "if (state.all_rings | taken) >> i & 1:", "if state.all_rings >> i & 1:",
      "both rings of a wedding on one hex"),
    M("W4", L, "if (state.all_rings | taken) >> i & 1:", "if (state.seats[seat].ring_mask | taken) >> i & 1:",
      "ring on a rival's ring"),
    M("W4", L, "blocked = s.fief_mask | state.all_rings", "blocked = state.all_rings", "generator: own fief"),
    M("W4", PO, "open_hexes = board.valid & ~(s.fief_mask | state.all_rings)",
      "open_hexes = board.valid & ~state.all_rings", "playout: ring on its own fief"),
    M("W5", S, "held = seat.held | new_mask", "held = seat.fief_mask | new_mask", "rings not in sea leagues"),
    M("W5", S, "return (s.held & cities).bit_count()", "return (s.fief_mask & cities).bit_count()",
      "rings not for objectives"),
    M("W6", L, "if s.rings < len(a.rings):", "if s.rings < 1:", "check: two rings with one in supply"),
    M("W6", L, "wedding_ring_sets(board, first, open_hexes, s.rings >= 2)",
      "wedding_ring_sets(board, first, open_hexes, s.rings >= 1)", "generator: two rings with one in supply"),
    M("W6", E, "state = state.with_seat(a.seat, rings=s.rings - 1)", "state = state.with_seat(a.seat, rings=s.rings)",
      "rings never leave the supply"),
    M("W6", PO, "if s.rings >= 2:", "if s.rings >= 1:", "playout: two rings with one in supply"),
    # ---------------------------------------------------------------- King's Privilege
    M("K1", L, "if s.rings < 1:\n            return Illegal.of(\"K1\"", "if s.rings < 0:\n            return Illegal.of(\"K1\"",
      "check: King without a ring"),
    M("K1", L, 'king_ok = s.rings >= 1 and "K" not in gone', 'king_ok = "K" not in gone', "generator: King without a ring"),
    M("K2", E, "seats = tuple(evolve(s, rings=s.rings - 1) if s.plan is not None and s.plan.king else s "
      "for s in state.seats)", "seats = state.seats", "King costs no ring"),
    M("K3", L, '    if plan.action != "C":', '    if plan.action != "C" or plan.king:', "King with Alliance cannot wed"),
    M("K4", L, 'if "K" in s.unavailable:', 'if "K" in state.seats[0].unavailable:', "check: King twice in a row"),
    M("K4", L, 'king_ok = s.rings >= 1 and "K" not in gone', "king_ok = s.rings >= 1", "generator: King twice in a row"),
    M("K4", E, 'played = {plan.region, plan.action} | ({"K"} if plan.king else set())',
      "played = {plan.region, plan.action}", "King card not kept out"),
    M("K4", PO, 'kings = (False, True) if s.rings >= 1 and "K" not in gone else (False,)',
      "kings = (False, True) if s.rings >= 1 else (False,)", "playout: King twice in a row"),
    # ---------------------------------------------------------------- scoring
    M("X1", S, "return SITE_FLOURISHING * flourishing.bit_count() + SITE_INACTIVE * (covered ^ flourishing).bit_count()",
      "return SITE_FLOURISHING * covered.bit_count()", "inactive sites score 3"),
    M("X1", S, "return SITE_FLOURISHING * flourishing.bit_count() + SITE_INACTIVE * (covered ^ flourishing).bit_count()",
      "return SITE_FLOURISHING * flourishing.bit_count() + SITE_INACTIVE * covered.bit_count()",
      "flourishing sites counted twice"),
    M("X2", S, "(held & harbors).bit_count() >= SEA_LEAGUE_HARBORS:\n            out.append(sea)",
      "(held & harbors).bit_count() > SEA_LEAGUE_HARBORS:\n            out.append(sea)", "league needs 4 harbors"),
    M("X2", S, "if sea not in seat.leagues and (held & harbors).bit_count()", "if (held & harbors).bit_count()",
      "league scored again"),
    M("X3", E, "donation_points=s.donation_points + scoring.DONATION", "donation_points=scoring.DONATION",
      "donations do not add up"),
    M("X4", S, "if not seen[k] and grown[j] & masks[k]:", "if not seen[k] and masks[j] & masks[k]:",
      "touching pieces not connected"),
    M("X4", S, "return [GONZAGA_TILE if best > 0 and g == best else 0 for g in groups]",
      "return [GONZAGA_TILE if best > 0 and i == groups.index(best) else 0 for i, g in enumerate(groups)]",
      "a tie on the Gonzaga tile: first seat only"),
    M("X4", S, "return [GONZAGA_TILE if best > 0 and g == best else 0 for g in groups]",
      "return [GONZAGA_TILE if g == best else 0 for g in groups]", "Gonzaga tile without a piece"),
    M("X5", S, "OBJECTIVE_TABLE = (0, 2, 5, 10, 15, 25, 35)", "OBJECTIVE_TABLE = (0, 2, 5, 10, 15, 20, 35)",
      "objective table"),
    M("X6", S, "return (state.seats[seat].held & state.board.sites).bit_count()",
      "return (state.seats[seat].held & state.board.city).bit_count()", "harbors do not break a tie"),
    M("X6", S, "winners = [i for i in leaders if held[i] == most]", "winners = leaders", "a tie never broken"),
    # ---------------------------------------------------------------- the end
    M("E1", S, "held = state.all_fiefs | state.all_rings", "held = state.all_fiefs", "rings ignored by Last Turn"),
    M("E1", RD, "and free_flourishing_sites <= LAST_TURN_FREE_SITES)", "and free_flourishing_sites < LAST_TURN_FREE_SITES)",
      "three free sites do not end it"),
    M("E1", RD, "round_no >= FIRST_LAST_TURN_CHECK", "round_no > FIRST_LAST_TURN_CHECK", "first check after round 7"),
    M("E1", E, "state = evolve(state, last_round=state.round + 1)", "state = evolve(state, last_round=state.round + 2)",
      "two more rounds"),
    M("E2", RD, "return round_no == last_round or not cards_left", "return round_no == last_round",
      "empty decks do not end the game"),
    M("E3", E, "tile = scoring.gonzaga_tile([scoring.largest_group(state, i) for i in range(state.n)])",
      "tile = [0] * state.n", "no Gonzaga tile at the end"),
    M("E3", E, "objective_points=scoring.OBJECTIVE_TABLE[held],", "objective_points=0,",
      "no objectives at the end"),
    # ---------------------------------------------------------------- fiefs (D1)
    M("D1", ST, "return None if self.fief is None else self.fief + self.card_digit",
      "return None if self.fief is None else self.fief + 1", "colour digit ignored"),
    M("D1", REC, "return printed if new_orders == old_orders else legacy", "return printed",
      "an old game loses the numbering that decided its turn order"),
    M("D1", REC, "if record.version < RECORD_VERSION:\n        record = upgrade(record, content)",
      "if record.version < RECORD_VERSION:\n        pass", "an old record replayed without its upgrade"),
    M("D2", "gonzaga/rules/content.py", "return edition if edition.map_id[\"digest\"] == digest else None",
      "return edition", "a kept board edition accepted for another digest"),
    M("D2", REC, "    own = edition_for(record.map_id, content)\n    if own is not None:\n        return own",
      "    own = edition_for(record.map_id, content)\n    if own is not None:\n        return content",
      "an old game replayed on the current board instead of its own edition"),
    # ---------------------------------------------------------------- spec E: the session and the saves
    M("E-view", PACING, "bot_seed(t.record.seed, seat), view(st, seat), seat)",
      "bot_seed(t.record.seed, seat), st, seat)", "AI request given the full state"),
    M("E-save", SESSION, "for a in record.actions:  # replay: same log, no autosave, no RNG\n"
      "            self._apply(a, notify=False)", "for a in record.actions:  # replay: same log, no autosave, no RNG\n"
      "            self._apply(a)", "autosave per replayed action"),
    M("E-save", SAVES, "fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f\".{path.name}.\", suffix=TEMP_SUFFIX)",
      "fd, tmp = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), str(path)",
      "written in place, no temporary file"),
    M("E-save", SAVES, "        os.replace(tmp, path)\n    except BaseException:",
      "        os.replace(tmp, path)\n    except Exception:", "temporary file left on an interrupt"),
    M("E-save", SAVES, "            os.unlink(tmp)\n        except OSError:\n            pass\n        raise",
      "            pass\n        except OSError:\n            pass\n        raise", "temporary file left on a failure"),
    M("E-save", SAVES, "if tuple(s.colour for s in model.seats) != tuple(record.config.seat_colours()):",
      "if len(model.seats) != len(record.config.seat_colours()):", "seat colours not checked"),
    M("E-save", SAVES, "if stored is not None and stored.digest != digest(state):", "if stored is None:",
      "summary digest not checked"),
    # ---------------------------------------------------------------- the audit's gaps (issue 38): rules
    M("X6", S, "held = {i: sites[i] for i in leaders}",
      "held = {i: sites[i] for i in range(len(totals))}", "a tie-break counts seats not tied"),
    M("R4", ENG, "return turn_order_key(plan.king, plan.action, card)",
      "return turn_order_key(plan.king, plan.action, 1000 * s.card_digit + card)",
      "a tie goes to the colour before the fief"),
    M("K1", L, "if s.rings < 1:\n            return Illegal.of(\"K1\"", "if s.rings <= 1:\n            return Illegal.of(\"K1\"",
      "check: King refused with exactly one ring"),
    M("K1", L, 'king_ok = s.rings >= 1 and "K" not in gone', 'king_ok = s.rings > 1 and "K" not in gone',
      "generator: King not offered with exactly one ring"),
    M("E-view", V, "known = {v.seats[me].objective}", "known = set()", "determinize: a rival given the viewer's objective"),
    M("E-view", V, 'changes["objective"] = pool.pop()', 'changes["objective"] = pool[-1]',
      "determinize: two rivals given one objective"),
    M("E-view", V, "        deck = list(s.deck)\n        rng.shuffle(deck)", "        deck = list(s.deck)",
      "determinize: decks left in sorted order"),
    # ---------------------------------------------------------------- take-backs
    M("E-takeback", TB, "if len(table.humans) > 1:", "if len(table.humans) > 2:",
      "hot-seat with two humans: a decision taken back"),
    M("E-takeback", TB, 'Plan) and (st.phase != "plan" or st.round != round_of(table, i)):',
      "Plan) and st.round != round_of(table, i):", "a revealed plan taken back"),
    M("E-takeback", TB, 'if isinstance(table.record.actions[i], Plan) and (st.phase != "plan" or st.round != round_of(table, i)):',
      'if isinstance(table.record.actions[i], Plan) and st.phase != "plan" or st.round != round_of(table, i):',
      "solo: no grace for the round's last placement"),
    M("E-takeback", TB, "if by != seat or not table.is_human(seat):", "if not table.is_human(seat):",
      "a seat's decision taken back by another asker"),
    M("E-takeback", TB, 'if st.phase == "over":', "if False:", "taken back once the game is over"),
    M("E-takeback", TB, "if isinstance(a, DECISIONS) and table.is_human(a.seat):", "if isinstance(a, DECISIONS):",
      "the take-back offered for an AI seat's decision"),
    M("E-takeback", CORE, 'self.assists["takebacks"] = self.assists.get("takebacks", 0) + 1',
      'self.assists["takebacks"] = self.assists.get("takebacks", 0)', "a take-back not counted"),
    M("E-takeback", CORE, "        self.last_action = actions[-1]\n        self.version += 1\n",
      "        self.last_action = actions[-1]\n", "a rewind does not move the version on"),
    M("E-takeback", PACING, "        if (seat, prefix) in self._memo:\n            return (None, prefix)",
      "        if False:\n            return (None, prefix)", "AI seats decide afresh after a take-back"),
    # ---------------------------------------------------------------- the session
    M("E-session", PACING, "        self._showing = None\n        for key, asked in", "        for key, asked in",
      "an AI action on show survives a rewind"),
    M("E-session", SEATS, '    if seats[seat].kind != "human":\n        return SeatRefused.of("R5", "seat_computer"',
      '    if False:\n        return SeatRefused.of("R5", "seat_computer"', "a human acts for an AI seat"),
    M("E-session", CORE, "        self.last_action = action\n        self.version += 1\n",
      "        self.last_action = action\n", "an applied action leaves the version"),
    M("E-takeback", CORE, '        self._keep(Change("rewind", n,', '        (lambda change: None)(Change("rewind", n,',
      "no notice (autosave) after a rewind"),
    M("E-session", SESSION, "return [i for i in self.state.to_act() if not self.is_human(i)]",
      "return list(self.state.to_act())", "an AI seat decides for a human"),
    M("E-session", SESSION, '"objective_id": s.objective if st.phase == "over" else None,',
      '"objective_id": s.objective,', "objectives in the score table before the end"),
    # ---------------------------------------------------------------- the table (one authority)
    M("E-table", OBS, "o.callback(table.view_for(o.seat), known_action(action, o.seat), table)",
      "o.callback(table.view_for(0), known_action(action, o.seat), table)", "an observer given another seat's view"),
    M("E-table", OBS, "if isinstance(action, Plan) and action.seat != seat:",
      "if isinstance(action, Plan) and action.seat == seat:", "another seat's plan told as played"),
    M("E-table", OBS, "return Setup(action.scenario, action.last_turn_seat, (), ())", "return action",
      "the setup told with its decks and objectives"),
    M("E-table", CORE, "            raise StoreFailed(str(e)) from e", "            return",
      "a store failure that still changes the state"),
    M("E-table", CORE, "        why = act_problem(self.seats, seat, action)\n",
      "        why = None\n", "a refused seat's action applied"),
    M("E-table", PACING, 'return [i for i in t.state.to_act() if t.seats[i].kind == "ai" or self._standing_in(i)]',
      "return list(t.state.to_act())", "an AI seat acts for a human"),
    M("E-table", CORE, '        self.seats[seat] = SeatSpec(old.name, "ai", bot, old.colour)\n        self.handed.add(seat)\n'
      '        self.version += 1\n',
      '        self.seats[seat] = SeatSpec(old.name, "ai", bot, old.colour)\n        self.handed.add(seat)\n',
      "the version not bumped by a hand-over"),
    M("E-table", SEATS, "if by is None or (by != seat and by != host):", "if by is None:",
      "anyone hands a seat to the computer"),
    M("E-table", SEATS, 'return seat is not None and 0 <= seat < len(seats) and seats[seat].kind == "human"',
      "return seat is not None and 0 <= seat < len(seats)", "a hint for an AI seat"),
    M("E-table", CORE, "        if self.started:\n            raise ValueError(\"the game has begun",
      "        if False:\n            raise ValueError(\"the game has begun", "a seat changed after the start"),
    M("E-table", CORE, 'if s.kind not in ("human", "ai"):', 'if s.kind not in ("human", "ai", "open"):',
      "a game started with a seat open"),
    M("E-table", CORE, "self.record.actions + [action], self.record.map_id), new, self.seats,",
      "self.record.actions, self.record.map_id), new, self.seats,", "the store given the record without the action"),
    M("E-table", CORE, "        except StoreFailed:  # nothing was taken back: nor is it counted\n"
      "            self.assists[\"takebacks\"] -= 1", "        except StoreFailed:  # nothing was taken back: nor is it counted\n"
      "            pass", "a take-back the store refused still counted"),
    M("E-table", STORE, "        except Exception:  # an autosave problem must not stop the game",
      "        except OSError:  # an autosave problem must not stop the game",
      "a desktop autosave failure stops the game"),
    # ---------------------------------------------------------------- hints
    M("E-hint", HINTS, "if self._asked is not None and not self._same(session):",
      "if self._asked is not None and self._asked[0] != session.token:",
      "a hint collected after the same session moved on"),
    M("E-hint", HINTS, "return self.hint if self.hint is not None and self._same(session) else None",
      "return self.hint if self.hint is not None and self._asked is not None and self._asked[0] == session.token else None",
      "a hint shown after the same session moved on"),
    M("E-hint", HINTS, "v = session.hint_view(seat)  # only a human", "v = session.state  # only a human",
      "a hint asked from the full state"),
    M("E-hint", HINTS, "h.position = session.position", "h.position = 0", "a hint without its position"),
    M("E-hint", HINTS, "            self._ticket = None\n            self.failed = True\n            return None",
      "            self._ticket = None\n            self.failed = False\n            return None",
      "a failed hint not said"),
    M("E-hint", HINTS, "return Hint(seat, a, scoring.DONATION,", "return Hint(seat, a, 0,",
      "a donation hint worth nothing"),
    M("E-hint", HINTS, "    if isinstance(a, Wedding):\n        return tuple(a.rings)", "    if isinstance(a, Wedding):\n        return ()",
      "a wedding hint without its rings"),
    M("E-hint", "gonzaga/ai/roster.py", "return LEVELS[-1].name", "return LEVELS[-2].name",
      "a hint not from the strongest level"),
    M("E-hint", SESSION, "return hints.hint_seed(self.record.seed, seat, self.position)",
      "return hints.hint_seed(self.record.seed, seat, 0)", "one hint seed for every position"),
    # ---------------------------------------------------------------- saves
    M("E-save", SAVES, "        record = upgrade(record, content)  # a version 1",
      "        record = record  # a version 1", "a version 1 save loaded without its upgrade"),
    M("E-save", SCHEMA, "if total != opened.st_size:", "if total > limit:", "a file growing while read accepted"),
    M("E-save", SAVES, "    while os.path.lexists(target):", "    if os.path.lexists(target):",
      "a third file moved aside in one second overwrites the second"),
    M("E-save", SAVES, "if type(v) is int and v > SAVE_VERSION:", "if type(v) is int and v > SAVE_VERSION + 1:",
      "the next save format not said to be newer"),
    M("E-save", SAVES, "if stat.S_ISREG(st.st_mode) and now - st.st_mtime > max_age:",
      "if stat.S_ISREG(st.st_mode):", "a write in progress has its temporary file removed"),
    M("E-save", SCHEMA, "parse_float=_parse_float, parse_constant=_parse_constant)", "parse_float=_parse_float)",
      "NaN and Infinity read from a save"),
    M("E-save", SAVES, 'return {"assists": a} if a else {}', "return {}", "take-backs and hints not saved"),
    # ---------------------------------------------------------------- network
    M("E-net", SERVER, "_, seat = self._seat_of(m.token, room)", "_, seat = self._seat_of(m.token)",
      "resume: another game's token opens a seat"),
    M("E-net", SERVER, "if found is None or (room is not None and found[0] is not room):", "if found is None:",
      "a token checked without its game"),
    M("E-net", ROOMS, "    if n != room.n:\n        raise Refused(\"stale\"", "    if n > room.n:\n        raise Refused(\"stale\"",
      "an action numbered behind accepted"),
    M("E-net", WIRE, "if len(text) > max_bytes or len(data) > max_bytes:",
      "if len(text) > max_bytes:", "the size limit counts characters"),
    M("E-net", ROOMS, "why = room.act(seat, action)  # who may",
      "why = room.act(getattr(action, 'seat', seat) if seat == room.host_seat else seat, action)  # who may",
      "the host acts for another seat"),
    M("E-net", ROOMS, "text=action.to_text() if action.seat == seat else None,", "text=action.to_text(),",
      "another seat's plan sent before the reveal"),
    M("E-net", SERVER, "        if old.token_hash and not room.started:\n            self.tokens.pop(old.token_hash, None)",
      "        if old.token_hash and not room.started:\n            pass", "a removed friend's token still works"),
    M("E-net", SERVER, "        if room.started:\n            raise Refused(\"started\", \"net.begun\")",
      "        if False:\n            raise Refused(\"started\", \"net.begun\")",
      "a started game started again"),
    M("E-net", ADMIT, "if seed is not None and not self.test_seeds:", "if False:",
      "a client's seed accepted"),
    M("E-net", ADMIT, "if len(a.wrong) >= self.limits.wrong_codes_per_minute:",
      "if len(a.wrong) > self.limits.wrong_codes_per_minute:", "one wrong invite code more before the lockout"),
    M("E-net", ADMIT, "self.limits.lockout_seconds * 2 ** (a.lockouts - 1))", "self.limits.lockout_seconds)",
      "lockouts never double"),
    M("E-net", ADMIT, "if len(a.lobbies) >= cap:", "if len(a.lobbies) > cap:", "one lobby more than the limit"),
    M("E-net", ADMIT, "if cap is not None and a.conns >= cap:", "if cap is not None and a.conns > cap:",
      "one connection more than an address's limit"),
    M("E-net", GATE, "            raw.abort()\n            self._release()\n", "            raw.abort()\n",
      "a failed TLS handshake keeps its address's slot"),
    M("E-net", GATE, "early, self._early = self._early, []", "early, self._early = [], []",
      "a request that came with the TLS handshake's last bytes dropped"),
    M("E-net", ACKLOG, "ok = int(parts[2], 16) == zlib.crc32(body)", "ok = True", "a damaged acknowledgement trusted"),
    M("E-net", ACKLOG, "            if n == b\"-\":\n                counts.pop(gid, None)",
      "            if n == b\"-\":\n                pass", "a deleted game still expected at the start"),
    M("E-net", NSTORE, "if have.get(g, -1) < n}", "if have.get(g, -1) < n - 1}", "one lost action not noticed"),
    M("E-net", NSTORE, "            if have != index:\n", "            if have > index:\n",
      "an action stored after a gap"),
    M("E-net", NSTORE, "        self._write(\"store an action\", fn)\n        self._acknowledge(game_id, index + 1)",
      "        self._write(\"store an action\", fn)\n        self._acknowledge(game_id, index)",
      "an action acknowledged one short"),
    M("E-net", WIRE, "    for _ in range(MAX_DEPTH):\n        shorter", "    for _ in range(MAX_DEPTH + 1):\n        shorter",
      "one level too deep accepted"),
    M("E-net", SERVER, "if seat != room.host_seat:", "if seat is None:", "a friend starts the game"),
    M("E-net", TURNCLOCK, "            self.clocks.setdefault(seat, Clock(position, now))",
      "            self.clocks[seat] = Clock(position, now)", "a seat's turn timer starts again at each update"),
    M("E-net", UPKEEP, "            timers.sweep(srv, time.monotonic())", "            pass",
      "the periodic task never checks the turn timers"),
    M("E-net", UPKEEP, "if self.clock() - self.swept >= SWEEP_SECONDS:", "if False:",
      "the periodic task never sweeps memory"),
    M("E-net", PROTO, "        return seat.player or None\n", "        return None\n",
      "a seat an AI plays for its player named as the AI's"),
    # ---------------------------------------------------------------- issue 45: planted where nobody planted
    # the turn timer after it ran out once, for the next decision and for a seat not connected
    M("E-net", TURNCLOCK, "if seat not in due or self.clocks[seat].position != position:", "if seat not in due:",
      "timer: a seat's wait not started again for its next decision"),
    M("E-net", TURNCLOCK, "start is not None and now - start >= self.secs:",
      "start is not None and now - start > self.secs:",
      "timer: runs out a moment late"),
    M("E-net", TURNCLOCK, "        if c.out:\n            return 0.0\n", "",
      "timer: a timed-out seat is told a fresh count while the AI decides"),
    M("E-net", ROOMS, 'due = {i for i in st.to_act() if self.table.seats[i].kind == "human"}',
      'due = {i for i in st.to_act() if self.table.seats[i].kind == "human" and self.seats[i].conn is not None}',
      "timer: never runs out for a seat that is not connected"),
    M("E-net", ROOMS, "        if turn_position(st) != turn_position(self.state):\n            return None",
      "        if False:\n            return None", "timer: a count told for a position the game has left"),
    M("E-net", TURNCLOCK, "else max(0.0, self.secs - (now - start))", "else self.secs - (now - start)",
      "timer: a count below zero told"),
    M("E-table", PACING, "return s is not None and s[1] == self._position(self.table.state) and",
      "return s is not None and", "timer: the AI stands in for the seat's next decisions too"),
    M("E-table", CORE, "        if seat not in self.state.to_act():\n            return Illegal.of(TABLE_RULE, \"not_seats_turn\"",
      "        if False:\n            return Illegal.of(TABLE_RULE, \"not_seats_turn\"",
      "timer: a time-out for a seat that is not due"),
    # the lockout: doubles on a repeat offence, forgiven only after an hour of quiet
    M("E-net", ADMIT, "if a.conns == 0 and a.locked_until <= now and not a.lockouts and now - a.seen > 60.0",
      "if a.conns == 0 and a.locked_until <= now and now - a.seen > 60.0",
      "lockout: a locked-out address forgotten after a quiet minute (back to 60 s)"),
    M("E-net", ADMIT, "if a.conns == 0 and a.locked_until <= now and now - a.seen > 3600.0:",
      "if a.conns == 0 and a.locked_until <= now and now - a.seen > 600.0:",
      "lockout: forgiven after ten quiet minutes, not an hour"),
    M("E-net", ADMIT, "lockout_max_seconds: float = 3600.0  # ...up to this",
      "lockout_max_seconds: float = 86400.0  # ...up to this", "lockout: doubles past an hour"),
    # every way to guess an invite code counts
    M("E-net", SOCIAL, "            self.admission.wrong_guess(conn.address)\n            raise Refused(\"unknown_game\"",
      "            raise Refused(\"unknown_game\"", "a wrong code to watch is not counted as a guess"),
    M("E-net", SOCIAL, "        self.admission.check_guess(conn.address)\n        room = self.by_code.get(m.code)",
      "        room = self.by_code.get(m.code)", "a locked-out address may still guess codes by watching"),
    # the operating system's randomness
    M("E-net", ROOMS, "secrets.choice(CODE_ALPHABET)", "__import__('random').choice(CODE_ALPHABET)",
      "invite codes from a seedable generator"),
    M("E-net", SERVER, "            t = secrets.token_urlsafe(24)",
      "            t = ''.join(random.choices('abcdefghijklmnopqrstuvwxyz0123456789', k=32))",
      "seat tokens from a seedable generator"),
    M("E-net", SERVER, "game_id = secrets.token_hex(8)\n        while", "game_id = '%016x' % random.getrandbits(64)\n        while",
      "game ids from a seedable generator"),
    # the pin
    M("E-net", TLS, "    found = fingerprint(der) if der else \"(none)\"\n",
      "    if not der:\n        return\n    found = fingerprint(der)\n", "pin: a server without a certificate passes"),
    M("E-net", INVITE, "    if pin is not None:\n        try:\n            check_pin(peer_der(ws), pin)",
      "    if pin is not None and peer_der(ws) is not None:\n        try:\n            check_pin(peer_der(ws), pin)",
      "pin: the bots' connection skips the check when no certificate is shown"),
    M("E-net", CLIENT, "if pin is not None:  # before anything is sent",
      "if pin is not None and peer_der(ws) is not None:  # before anything is sent",
      "pin: the desktop's connection skips the check when no certificate is shown"),
    # text cleaning
    M("E-net", CLEAN, '("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")', '("Cc", "Cs", "Co", "Cn", "Zl", "Zp")',
      "clean text: format characters not in the short list kept"),
    # the database at start
    M("E-net", NSTORE, "        if [r[0] for r in rows] != [\"ok\"]:\n", "        if False:\n",
      "a damaged main database not reported"),
    M("E-net", NSTORE, "if f.exists() and not os.access(f, os.R_OK | os.W_OK):",
      "if f.exists() and not os.access(f, os.R_OK):", "a read-only database accepted"),
    M("E-net", NSTORE, "if folder.exists() and not os.access(folder, os.W_OK | os.X_OK):", "if False:",
      "a read-only data folder accepted"),
    # what goes on the wire
    M("E-net", VCODEC, 'v.viewer is None and v.phase != "over" and any(', 'v.viewer is None and v.phase == "setup" and any(',
      "a public view with objectives sent"),
    M("E-net", ENDGAME, "        room, seat = self._holder(conn, m.token)\n        if not room.finished:",
      "        room, seat = self._seat_of(m.token)\n        if not room.finished:",
      "a rematch asked for another seat from one's connection"),
    M("E-net", SERVER, "room.rematch.discard(seat)  # a rematch needs everyone there",
      "pass  # a rematch needs everyone there", "a rematch asked before a drop still counts after it"),
    M("E-net", SOCIAL, "room, seat = self._holder(conn, token)", "room, seat = self._seat_of(token)",
      "chat said for another seat of the game"),
    M("E-net", MYGAMES, "if not g.over), key=lambda g: g.date, reverse=True)", "if not g.over), key=lambda g: g.date)",
      "online games in progress listed oldest first"),
    # observers and the public view: a hidden plan carries nothing secret
    M("E-table", OBS, "        return Plan(action.seat, HIDDEN, HIDDEN, False)",
      "        return Plan(action.seat, action.region, HIDDEN, False)", "observers: a hidden plan tells its region"),
    M("E-table", OBS, "        return Plan(action.seat, HIDDEN, HIDDEN, False)",
      "        return Plan(action.seat, HIDDEN, HIDDEN, action.king)", "observers: a hidden plan tells its King"),
    M("E-view", V, "        if state.phase == \"plan\" and s.plan is not None:\n            changes[\"plan\"] = Plan(i, HIDDEN, HIDDEN, False)\n        seats.append",
      "        if state.phase == \"plan\" and s.plan is not None:\n            changes[\"plan\"] = Plan(i, s.plan.region, HIDDEN, False)\n        seats.append",
      "public view: a planned seat's region shown"),
    # finished games
    M("E-table", FINISHED, "good.sort(key=lambda i: i.saved_at, reverse=True)", "good.sort(key=lambda i: i.saved_at)",
      "finished games oldest first"),
    M("E-table", FINISHED, "good.sort(key=lambda i: i.saved_at, reverse=True)",
      "good.sort(key=lambda i: i.path.name, reverse=True)", "finished games in the order of their names"),
    M("E-table", FINISHED, "    if st.phase != \"over\":\n        return None\n    path = P.finished_dir()",
      "    path = P.finished_dir()", "a game not over kept as finished"),
    M("E-table", FINISHED, 'if path.parent.resolve() != P.finished_dir().resolve() or not path.name.endswith(".json"):',
      'if not path.name.endswith(".json"):', "any save deleted as a finished game"),
    # hints name only real reasons
    M("E-hint", HINTS, "rivals = sorted({p.seat for p in v.pieces if p.seat != seat and p.mask & near})",
      "rivals = sorted({p.seat for p in v.pieces if p.seat != seat})", "hint: blocks rivals it does not touch"),
    M("E-hint", HINTS, 'said.append(i18n.t("hint.harbors", n=((s.held | mask) & harbors).bit_count(),',
      'said.append(i18n.t("hint.harbors", n=(mask & harbors).bit_count(),',
      "hint: harbors toward a league counted without those already held"),
    M("E-hint", HINTS, "        if after > scoring.largest_group(v, seat):", "        if after >= scoring.largest_group(v, seat):",
      "hint: grows the dominion without growing it"),
    M("E-hint", HINTS, "if sea in leagues or sea in s.leagues or not mask & ~s.held & harbors:",
      "if sea in leagues or not mask & ~s.held & harbors:", "hint: harbors toward a sea league already made"),
    M("E-hint", HINTS, "    for sea in scoring.new_leagues(v, s, mask):\n        parts.append",
      "    for sea in s.leagues:\n        parts.append", "hint: leagues already made named as new"),
    M("E-hint", HINTS, 'better = [text for kind, (value, text) in ours.items() if value > theirs.get(kind, (0, ""))[0]]',
      "better = [text for kind, (value, text) in ours.items()]", "hint: prefers for what the best choice has too"),
    # the history and the statistics
    M("E-table", HISTORY, 'if prev.phase == "place" and (st.round != prev.round or st.phase == "over"):',
      'if prev.phase == "place" and st.round != prev.round:', "history: the last round's scores missing"),
    M("E-table", HISTORY, "    text = \"\\n\".join([repr(sorted(record.config.to_json().items())), str(record.seed), setup] + who)",
      "    text = \"\\n\".join([repr(sorted(record.config.to_json().items())), str(record.seed), setup])",
      "history: a game's id ignores its seats"),
    M("E-table", STATS, "me = max(humans, key=lambda i: (i in st.winners, st.seats[i].score))", "me = humans[0]",
      "stats: hot-seat counts the first human, not the best"),
    M("E-table", STATS, "        if stats.has(entry.id):\n            return message", "        if False:\n            return message",
      "stats: a game counted twice"),
    M("E-table", STATS, "stats.games = stats.games[-MAX_GAMES:]", "stats.games = stats.games[:MAX_GAMES]",
      "stats: the newest games dropped at the cap"),
    # the saves: the load screen's list
    M("E-save", SAVES, "return [p for _, _, p in sorted(out, key=lambda t: (-t[0], t[1]))]",
      "return [p for _, _, p in sorted(out, key=lambda t: (t[0], t[1]))]", "saves listed oldest first"),
    M("E-save", SAVES, "            e.moved_to = move_aside(Path(path))\n            e.move_failed = e.moved_to is None",
      "            e.moved_to = None\n            e.move_failed = e.moved_to is None",
      "a bad save left in the list's way, not moved aside"),
    # the words
    M("E-words", I18N, "table(_language).get(key) or EN.get(key), key, params)", "table(_language).get(key), key, params)",
      "words: no English for a key the language lacks"),
    M("E-words", CATALOG, 'plural_forms: str = "nplurals=2; plural=(n != 1);"',
      'plural_forms: str = "nplurals=2; plural=(n > 1);"', "words: zero is singular"),
    M("E-words", I18N, 'return t(f"card.{card}") if card in ("A", "B", "C", "K", "inactive") else name',
      "return name", "words: a logged card keeps the language it was logged in"),
    # ---------------------------------------------------------------- issues 47 and 50: planted in the
    # accounts, the fair clocks, the public list and the typed code (code no mutant had touched)
    M("E-net", ACCOUNTS, 'unicodedata.normalize("NFKC", name).casefold())', 'unicodedata.normalize("NFKC", name))',
      "accounts: names unique only in one case"),
    M("E-net", ACCOUNTS, "    if parts is None:\n        return False\n    n, r, p, salt, want = parts",
      "    if parts is None:\n        return True\n    n, r, p, salt, want = parts",
      "accounts: a damaged hash lets any password in"),
    M("E-net", ACCOUNTS, "    if fails < ACCOUNT_FREE:\n        return 0.0", "    if fails <= ACCOUNT_FREE:\n        return 0.0",
      "accounts: one more free guess against an account"),
    M("E-net", ACCOUNTS, "        times = self._times(table, key, window)\n        if len(times) < cap:",
      "        times = self._times(table, key, window)\n        if len(times) <= cap:",
      "accounts: one more guess per address"),
    M("E-net", ACCOUNTS, "        self._times(self._fails, address, ADDRESS_WINDOW).append(now)",
      "        self._times(self._fails, address, ADDRESS_WINDOW)", "accounts: wrong passwords from an address not counted"),
    M("E-net", ACCOUNTS, 'return hashlib.sha256(token.encode("utf-8")).hexdigest()', "return token",
      "accounts: session tokens kept as they are"),
    M("E-net", TURNCLOCK, "        if c is None or c.position != position or c.start_at(now) is not None:",
      "        if c is None or c.position != position:", "clocks: seen again starts the clock again"),
    M("E-net", TURNCLOCK, "return self.due + SEEN_CAP if now >= self.due + SEEN_CAP else None",
      "return now if now >= self.due + SEEN_CAP else None", "clocks: never seen, the clock waits for ever"),
    M("E-net", TURNCLOCK, "            if not c.out and start is not None and now - start >= self.secs:",
      "            if start is not None and now - start >= self.secs:", "clocks: a run-out clock told again each tick"),
    M("E-net", LISTING, "return room.listed and not room.started and", "return not room.started and",
      "list: private games shown to everyone"),
    M("E-net", LISTING, "waiting.sort(key=lambda r: r.created, reverse=True)", "waiting.sort(key=lambda r: r.created)",
      "list: the oldest games first (the newest cut at the cap)"),
    M("E-net", TYPED, "if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):",
      "if len(code) != CODE_LENGTH:", "typed: a code with letters no server makes (O, 0, I, 1) accepted"),
    M("E-net", SEATNEWS, 'key = "log.ai_planned_for" if isinstance(action, Plan) else "log.ai_placed_for"',
      'key = "log.ai_placed_for"', "news: a plan made by the computer told as a placement"),
]


# the mutants planted for issue 45 (--issue 45): in code no mutant had touched before
_AT_50 = next(i for i, m in enumerate(MUTANTS) if m.what.startswith("accounts: names unique"))
ISSUE_45 = MUTANTS[next(i for i, m in enumerate(MUTANTS) if m.what.startswith("timer: a seat's wait")):_AT_50]
# the mutants planted after issues 47 and 50 (--issue 50): accounts, clocks, the list, what is typed
ISSUE_50 = MUTANTS[_AT_50:]


# ---------------------------------------------------------------- the pytest plugin (-p mutate)

def pytest_addoption(parser):
    parser.addoption("--mutate-rule", default=None, help="run only the tests marked with this rule id")


def pytest_collection_modifyitems(config, items):
    rule = config.getoption("--mutate-rule")
    if not rule:
        return
    keep, drop = [], []
    for item in items:
        ids = {i for m in item.iter_markers("rule") for i in m.args}
        (keep if rule in ids else drop).append(item)
    items[:] = keep
    config.hook.pytest_deselected(items=drop)


def pytest_runtest_logreport(report):
    _note_failure(report)


def pytest_collectreport(report):
    _note_failure(report)


def _note_failure(report):
    out = os.environ.get("MUTATE_FAILURES")
    if out and report.failed:
        with open(out, "a", encoding="utf-8") as f:
            f.write((report.nodeid or "collection") + "\n")


# ---------------------------------------------------------------- running

@dataclass
class Result:
    mutant: Mutant
    status: str  # killed-by-rule, killed-by-layer, killed-by-other, survived, stale, timeout
    tests: list = field(default_factory=list)
    seconds: float = 0.0
    own_layer: bool = False  # a test of the mutant's own layer failed

    @property
    def layer(self) -> str:
        return layer_of(self.mutant.file)


def tracked_files() -> list[str]:
    """Every file git tracks in the repository (the copy is the repository, not a subset of it)."""
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [p for p in out.decode("utf-8").split("\0") if p]


class Workspace:
    """A private copy of the repository (and the spec beside it) to mutate and test."""

    def __init__(self, base: Path, n: int):
        self.dir = base / f"job{n}"
        self.repo = self.dir / "repo"
        for name in tracked_files():  # as they are in the working tree, edits in progress included
            src = ROOT / name
            if src.is_file():
                (self.repo / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, self.repo / name)
        if SPEC.is_file():
            (self.dir / "shared" / "design").mkdir(parents=True)
            shutil.copy2(SPEC, self.dir / "shared" / "design" / "spec.md")

    def pytest(self, args: list[str], deselect: list[str], first_failure: bool = True) -> tuple[int, list[str]]:
        failures = self.dir / "failures.txt"
        failures.unlink(missing_ok=True)
        env = {**os.environ, "PYTHONPATH": f"{self.repo}{os.pathsep}{self.repo / 'tools'}",
               "PYTHONDONTWRITEBYTECODE": "1", "MUTATE_FAILURES": str(failures),
               "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "GONZAGA_HOME": str(self.dir / "home")}
        env.pop("GONZAGA_SPEC", None)
        cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "mutate",
               "--rootdir", str(self.repo), *(["-x"] if first_failure else []), *args]
        cmd += [f"--deselect={d}" for d in deselect]
        proc = subprocess.Popen(cmd, cwd=self.repo, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
        try:
            rc = proc.wait(timeout=TIMEOUT[0])
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            rc = -1
        failed = failures.read_text().split() if failures.exists() else []
        return rc, failed

    def check_imports_copy(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(self.repo)}
        out = subprocess.run([sys.executable, "-c", "import gonzaga; print(gonzaga.__file__)"], cwd=self.repo,
                             env=env, capture_output=True, text=True).stdout.strip()
        if not out.startswith(str(self.repo)):
            raise SystemExit(f"the copy's package is not the one imported ({out}); is gonzaga installed elsewhere?")


def baseline(ws: Workspace, layers=None) -> list[str]:
    """Tests failing before any mutation (someone's change in progress): left out of every run.
    ``layers``: only the tests of these layers run (--no-suite)."""
    args = SUITE if layers is None else [a for layer in layers for a in layer_suite(ws, layer)[:-2]] + SUITE[-2:]
    rc, failed = ws.pytest(args, [], first_failure=False)
    if rc not in (0, 1, 5) or "collection" in failed:
        raise SystemExit(f"the unmutated suite does not run (pytest exit {rc}): {failed[:3]}")
    return failed


def layer_suite(ws: Workspace, layer: str) -> list[str]:
    """The pytest arguments that run the tests of ``layer`` in this copy (none: an empty list)."""
    names = sorted({p.relative_to(ws.repo).as_posix() for pat in LAYER_TESTS.get(layer, ())
                    for p in (ws.repo / "tests").glob(pat + ".py")})
    return [*names, *SUITE[-2:]] if names else []


def run_one(ws: Workspace, m: Mutant, deselect: list[str]) -> Result:
    """Stage 1 (the tests marked with the mutant's rule), then the tests of its layer when none of
    them failed yet, then stage 2 (the fast suite)."""
    t0 = time.monotonic()
    path = ws.repo / m.file
    text = path.read_text(encoding="utf-8")
    mutated = m.apply(text)
    if mutated is None:
        return Result(m, "stale", [f"snippet not found once in {m.file}"])
    path.write_text(mutated, encoding="utf-8")
    layer = layer_of(m.file)
    try:
        if not FULL_SUITE[0]:  # --no-suite: the tests of its layer only, which decide the per-layer figure
            if not layer_suite(ws, layer):
                return Result(m, "survived", ["no tests for its layer"], time.monotonic() - t0)
            rc, failed = ws.pytest(layer_suite(ws, layer), deselect)
            if rc == -1:
                return Result(m, "timeout", failed, time.monotonic() - t0, True)
            if rc not in (0, 5):
                return Result(m, "killed-by-layer", failed or [f"pytest exit {rc}"], time.monotonic() - t0, True)
            return Result(m, "survived", [], time.monotonic() - t0)
        rc, failed = ws.pytest(SUITE + ["--mutate-rule", m.rule], deselect)
        if rc == -1:
            return Result(m, "timeout", [], time.monotonic() - t0)
        own = any(layer in test_layers(t) for t in failed)
        if failed and own:
            return Result(m, "killed-by-rule", failed, time.monotonic() - t0, True)
        args = layer_suite(ws, layer)
        if args:
            rc2, failed2 = ws.pytest(args, deselect)
            if rc2 == -1:  # the layer's own tests hang on it
                return Result(m, "timeout", failed, time.monotonic() - t0, True)
            if rc2 not in (0, 5):
                if failed:
                    return Result(m, "killed-by-rule", failed + failed2, time.monotonic() - t0, True)
                return Result(m, "killed-by-layer", failed2 or [f"pytest exit {rc2}"], time.monotonic() - t0, True)
        if failed:
            return Result(m, "killed-by-rule", failed, time.monotonic() - t0)
        rc, failed = ws.pytest(SUITE, deselect)
        if rc == -1:
            return Result(m, "timeout", [], time.monotonic() - t0)
        if rc != 0 and rc != 5:
            return Result(m, "killed-by-other", failed or [f"pytest exit {rc}"], time.monotonic() - t0)
        return Result(m, "survived", [], time.monotonic() - t0)
    finally:
        path.write_text(text, encoding="utf-8")


def layer_summary(results: list) -> dict:
    """Per layer (in the order rules, authority, saves, network, words, other; only those with mutants):
    how many mutants, how many killed, how many killed by a test of their own layer, and its share."""
    out = {}
    for name in ("rules", "authority", "saves", "network", "words", "other"):
        rs = [r for r in results if r.layer == name and r.status != "stale"]
        if not rs:
            continue
        own = sum(r.own_layer for r in rs)
        out[name] = {"mutants": len(rs), "killed": sum(r.status not in ("survived",) for r in rs),
                     "killed_by_own_layer": own, "survived": sum(r.status == "survived" for r in rs),
                     "own_layer_percent": round(100.0 * own / len(rs), 1)}
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", action="store_true", help="print a JSON summary on stdout (the report goes to stderr)")
    ap.add_argument("--jobs", type=int, default=2, help="mutants tested at once (default 2)")
    ap.add_argument("--only", default="", help="comma-separated rule ids or words of mutant names")
    ap.add_argument("--layer", default="", help="only the mutants of these layers (comma-separated: rules, "
                    "authority, saves, network)")
    ap.add_argument("--list", action="store_true", help="list the mutants and exit")
    ap.add_argument("--timeout", type=float, default=600.0,
                    help="seconds for one pytest run (default 600; a busy machine needs more for the baseline)")
    ap.add_argument("--issue", default="", help="only the mutants planted for this issue (45, 50)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary copies")
    ap.add_argument("--no-suite", action="store_true",
                    help="run only the tests of each mutant's layer (LAYER_TESTS), which decide the per-layer "
                         "figure; 'survived' then means by its layer (far quicker on a busy machine)")
    ap.add_argument("--skip-tests", default="", metavar="EXPR",
                    help="leave out tests matching this -k expression (e.g. 'compare or brute_force', to see "
                         "what the hand-worked tests kill alone)")
    args = ap.parse_args(argv)
    FULL_SUITE[0] = not args.no_suite
    TIMEOUT[0] = args.timeout
    if args.skip_tests:
        SUITE[-1] += f" and not ({args.skip_tests})"
    mutants = MUTANTS
    if args.issue:
        mutants = {"45": ISSUE_45, "50": ISSUE_50}[args.issue]
    if args.only:
        keys = [k.strip() for k in args.only.split(",") if k.strip()]
        mutants = [m for m in mutants if m.rule in keys or any(k in m.name for k in keys)]
    if args.layer:
        layers = {k.strip() for k in args.layer.split(",")}
        mutants = [m for m in mutants if layer_of(m.file) in layers]
    report = sys.stderr if args.json else sys.stdout
    if args.list:
        stale = 0
        for m in mutants:
            ok = m.apply((ROOT / m.file).read_text(encoding="utf-8")) is not None
            stale += not ok
            print(f"{m.rule:7} {m.file:28} {m.what}" + ("" if ok else "  (STALE: snippet not found once)"),
                  file=report)
        print(f"{len(mutants)} mutants, {stale} stale", file=report)
        return 1 if stale else 0
    base = Path(tempfile.mkdtemp(prefix="gonzaga-mutate-"))
    t0 = time.monotonic()
    try:
        jobs = max(1, min(args.jobs, len(mutants)))
        spaces = [Workspace(base, n) for n in range(jobs)]
        spaces[0].check_imports_copy()
        print(f"{len(mutants)} mutants, {jobs} at a time; copies in {base}", file=report, flush=True)
        skipped = baseline(spaces[0], sorted({layer_of(m.file) for m in mutants}) if args.no_suite else None)
        if skipped:
            print(f"left out (failing before any mutation): {', '.join(skipped)}", file=report, flush=True)
        queue: Queue = Queue()
        for m in mutants:
            queue.put(m)
        results: list[Result] = []
        lock = threading.Lock()

        def work(ws: Workspace):
            while True:
                try:
                    m = queue.get_nowait()
                except Empty:
                    return
                r = run_one(ws, m, skipped)
                with lock:
                    results.append(r)
                    first = r.tests[0] if r.tests else ""
                    print(f"{r.status:15} {'layer' if r.own_layer else '     '} {m.rule:10} {m.file:28} {m.what}  "
                          f"[{r.seconds:.0f}s] {first}",
                          file=report, flush=True)

        threads = [threading.Thread(target=work, args=(ws,)) for ws in spaces]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    order = {m: i for i, m in enumerate(mutants)}
    results.sort(key=lambda r: order[r.mutant])
    count = {s: sum(r.status == s for r in results) for s in
             ("killed-by-rule", "killed-by-layer", "killed-by-other", "timeout", "survived", "stale")}
    total = len(results)
    killed = count["killed-by-rule"] + count["killed-by-layer"] + count["killed-by-other"] + count["timeout"]
    print(f"\nscore: {killed}/{total} killed; {count['killed-by-rule']}/{total} killed by a test marked with the "
          f"rule the mutant breaks; {count['survived']} survived, {count['stale']} stale "
          f"({time.monotonic() - t0:.0f} s)", file=report)
    layers = layer_summary(results)
    for name, d in layers.items():
        print(f"  {name:10} {d['killed_by_own_layer']:3}/{d['mutants']:<3} killed by a test of the layer "
              f"({d['own_layer_percent']:5.1f}%); {d['killed']} killed in all, {d['survived']} survived",
              file=report)
    for r in results:
        if r.status in ("survived", "killed-by-other", "stale") or not r.own_layer:
            print(f"  {r.status}{'' if r.own_layer else ' (not by its layer)'}: {r.mutant.name} {r.tests[:1]}",
                  file=report)
    if args.json:
        json.dump({"total": total, "killed": killed, "killed_by_rule": count["killed-by-rule"],
                   "killed_by_layer": count["killed-by-layer"],
                   "killed_by_other": count["killed-by-other"], "timeout": count["timeout"],
                   "survived": count["survived"], "stale": count["stale"], "left_out": skipped,
                   "layers": layers,
                   "mutants": [{"rule": r.mutant.rule, "file": r.mutant.file, "what": r.mutant.what,
                                "layer": r.layer, "own_layer": r.own_layer,
                                "status": r.status, "tests": r.tests, "seconds": round(r.seconds, 1)}
                               for r in results]}, sys.stdout, indent=1)
        print()
    return 0 if count["killed-by-rule"] == total else 1


if __name__ == "__main__":
    sys.exit(main())
