"""The English words of turn-based games and My games (issue 47, t47turn): the server's answers
(``net/turns.py``), the game log's line for a seat lost by missed moves, the My games screen
(``scenes/mygames.py``), the pace on the create screen, the notification and its setting.
Merged into ``i18n.EN`` at import; the translations are in ``locale/*/LC_MESSAGES/gonzaga.po``.
"""
from __future__ import annotations

EN: dict[str, str] = {
    # ---- the server's answers
    "turns.none": "This server does not keep turn-based games.",
    "turns.move_hours": "A turn-based game needs a time per move of {least} to {most} hours.",
    "turns.no_timer": "A turn-based game has its time per move: it takes no turn timer.",
    "turns.account_needed": "Turn-based games are played with an account: sign in to this server first.",
    "turns.no_handover": "In a turn-based game the computer takes a seat only after {limit} missed moves in a row.",
    "log.seat_missed_out": "{name} missed {n} moves in a row: the computer plays the seat to the end.",
    # ---- the title screen and the My games screen
    "mygames.button": "My games",
    "mygames.button_n": "My games ({n} your turn)",
    "mygames.heading": "My games",
    "mygames.hint": "Your games on the servers you are signed in to, your turn first.",
    "mygames.your_turn": "Your turn",
    "mygames.their_turn": "Waiting for {names}",
    "mygames.lobby": "Waiting for players",
    "mygames.finished": "Finished",
    "mygames.left_hours": "{hours} h left",
    "mygames.left_minutes": "{minutes} min left",
    "mygames.round": "Round {round}",
    "mygames.with": "with {names}",
    "mygames.live": "Live",
    "mygames.turn": "{hours} h a move",
    "mygames.missed": "{n} missed in a row",
    "mygames.open": "Open",
    "mygames.refresh": "Refresh",
    "mygames.asking": "Asking the servers...",
    "mygames.none": "No games yet: create a turn-based game on a server you are signed in to.",
    "mygames.no_sign_in": "You are not signed in to any server: sign in from Play on a server.",
    "mygames.dead": "{server} does not answer ({reason}): its games are not shown.",
    "mygames.opening": "Opening the game...",
    # ---- creating a game on a server
    "pace.label": "Pace",
    "pace.live": "Live",
    "pace.turn": "Turn-based",
    "pace.hours_button": "Time per move: {hours} h",
    "pace.missed_button": "AI after {n} missed",
    # ---- the notification and its setting
    "notify.title": "Gonzaga: your turn",
    "notify.your_turn": "It is your turn in a game on {server} (round {round}).",
    "notify.setting": "Tell me when it is my turn in another game",
}
