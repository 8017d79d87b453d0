"""Issue 14: the online protocol's messages and the view codec.

A view sent to a client and read back is the very view ``rules.view`` gives that seat (spec E:
what a seat may know), at every step of whole games; a full state is never encoded; hostile
client messages are refused with their error code before any game sees them."""
from __future__ import annotations

import json
import random

import pytest

from gonzaga.net import protocol as P
from gonzaga.net.viewcodec import view_from_json, view_to_json
from gonzaga.rules import GameConfig, apply, deal, legal_actions, load_content, new_game, view


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_view_of_a_whole_game_survives_the_wire(seats):
    """Spec E: the view read back equals view(state, seat), after every action, for every seat."""
    c = load_content()
    rng = random.Random(seats)
    st = new_game(GameConfig(seats=seats), c)
    st = apply(st, deal(st, rng))
    while True:
        for i in range(st.n):
            v = view(st, i)
            assert view_from_json(json.loads(json.dumps(view_to_json(v))), c) == v
        if st.phase == "over":
            break
        st = apply(st, rng.choice(legal_actions(st, st.to_act()[0])))


def test_a_full_state_is_never_encoded():
    c = load_content()
    st = new_game(GameConfig(seats=2), c)
    st = apply(st, deal(st, random.Random(1)))
    with pytest.raises(ValueError):
        view_to_json(st)
    d = view_to_json(view(st, 0))
    assert d["seats"][1]["objective"] is None and d["seats"][0]["objective"] == st.seats[0].objective
    assert d["seats"][0]["deck"] == sorted(st.seats[0].deck)  # the order of a deck is never sent


def test_a_damaged_view_is_a_clear_error():
    c = load_content()
    st = new_game(GameConfig(seats=2), c)
    st = apply(st, deal(st, random.Random(1)))
    d = view_to_json(view(st, 0))
    d["seats"][0]["deck_hidden"] = False
    with pytest.raises(ValueError, match="cannot read"):
        view_from_json(d, c)


@pytest.mark.parametrize("text,code", [
    ("{", "bad_json"), ("[1]", "bad_json"), ("\"x\"", "bad_json"),
    ('{"v": 3, "type": "ping"}', "bad_version"), ('{"v": 1, "type": "ping"}', "bad_version"), ('{"type": "ping"}', "bad_version"),
    ('{"v": 2, "type": "fly"}', "bad_message"),
    ('{"v": 2, "type": "act", "token": "short", "n": 0, "action": "donate 0"}', "bad_message"),
    ('{"v": 2, "type": "join", "code": "ABCD", "name": "Ann", "extra": 1}', "bad_message"),
    ('{"v": 2, "type": "join", "code": "ABCD", "name": ""}', "bad_message"),
    ('{"v": 2, "type": "ping", "x": ' + "[" * 40 + "]" * 40 + "}", "too_deep"),
    ('{"v": 2, "type": "ping", "pad": "' + "x" * (P.MAX_CLIENT_BYTES + 1) + '"}', "too_large"),
    (b"\xff\xfe", "bad_json"),
])
def test_hostile_client_messages_get_their_error_code(text, code):
    with pytest.raises(P.ProtocolError) as e:
        P.parse_client(text)
    assert e.value.code == code and e.value.code in P.ERROR_CODES


def test_messages_round_trip():
    m = P.Act(token="t" * 20, n=3, action="donate 1")
    assert P.parse_client(P.encode(m)) == m
    u = P.Error(code="illegal", key="refusal.game_over", message="the game is over", rule="E3")
    assert P.parse_server(P.encode(u)) == u
    # brackets inside strings do not count as nesting
    assert P.parse_client(json.dumps({"v": 2, "type": "join", "code": "ABCD", "name": "[[[[[[[[[["}))


TOK = "t" * 20


@pytest.mark.parametrize("msg", [
    {"type": "chat", "token": TOK},                                  # no text
    {"type": "chat", "token": TOK, "text": ""},                      # empty
    {"type": "chat", "token": TOK, "text": "x" * 801},               # too long
    {"type": "chat", "token": TOK, "text": ["hi"]},                  # not a string
    {"type": "chat", "token": "bad token!", "text": "hi"},           # not a token
    {"type": "emote", "token": TOK, "emote": "rude"},                # not an emote
    {"type": "emote", "token": TOK},
    {"type": "resign"},                                              # no token
    {"type": "resign", "token": TOK, "seat": 1},                     # an extra field
    {"type": "rematch", "token": 5},
    {"type": "watch", "code": "abc"},                                # not a code
    {"type": "watch"},
    {"type": "create", "name": "Ann", "seats": [{"kind": "host", "colour": "red"}, {"kind": "open", "colour": "blue"}],
     "grace": -1},
    {"type": "create", "name": "Ann", "seats": [{"kind": "host", "colour": "red"}, {"kind": "open", "colour": "blue"}],
     "turn_secs": 5},
    {"type": "join", "code": "ABCDEF", "name": "Ann\u202e"},         # a name with a direction override
    {"type": "join", "code": "ABCDEF", "name": "\u200b"},            # only invisible
])
def test_every_new_message_is_refused_cleanly_when_malformed(msg):
    with pytest.raises(P.ProtocolError) as e:
        P.parse_client(json.dumps({"v": 2, **msg}))
    assert e.value.code == "bad_message" and e.value.message


def test_a_spectators_public_view_is_encoded_and_read_back():
    from gonzaga.rules.view import public_view
    c = load_content()
    st = new_game(GameConfig(seats=3), c)
    st = apply(st, deal(st, random.Random(2)))
    v = public_view(st)
    assert view_from_json(json.loads(json.dumps(view_to_json(v))), c) == v
    assert all(s["objective"] is None for s in view_to_json(v)["seats"])


def _update_with(**extra) -> str:
    return json.dumps({"v": 2, "type": "update", "game": "g1", "n": 3, "seat": 0, "view": {}, "last": None,
                       "seats": [], **extra})


@pytest.mark.rule("E-net")
@pytest.mark.parametrize("left", [0, 12.5, 3600])
def test_an_update_carries_the_seconds_left_under_a_turn_timer(left):
    assert P.parse_server(_update_with(turn_left=left)).turn_left == left
    assert P.parse_server(_update_with()).turn_left is None  # no timer, or not this seat's turn


@pytest.mark.rule("E-net")
@pytest.mark.parametrize("left", ["-1", "1e9", '"30"', "true", "NaN", "Infinity", "[30]", "{}", "-0.5"])
def test_a_malformed_seconds_left_is_refused(left):
    """A time left that is not a number of seconds from 0 to an hour is not a server's message."""
    with pytest.raises(P.ProtocolError) as e:
        P.parse_server(_update_with()[:-1] + ', "turn_left": ' + left + "}")
    assert e.value.code == "bad_message"
