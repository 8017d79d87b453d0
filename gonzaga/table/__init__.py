"""The authority floor: the one place a game's state changes, and what keeps a game.

It imports only ``gonzaga.rules``, ``gonzaga.ai`` and the words (``words.i18n``); never pygame,
screens, render, widgets or net.

- ``core.py``: :class:`Table`, the one authority (check, store, apply, record, tell, ask the AI);
  the same class serves a desktop game (hot-seat and solo) and each room of the server.
- ``seats.py``: who sits where (``SeatSpec``) and who may do what (act, hint, hand a seat to an AI).
- ``takeback.py``: which decision a take-back may undo.
- ``pacing.py``: AI seats asked through a decision worker, and shown before they are applied.
- ``observers.py``: what each observer is told (its own view, the action as it may know it).
- ``store.py``: where each change is written before it becomes visible (autosave, server database).
- ``session.py``: the desktop ``Session`` (game log, queries for the screens) over a ``Table``.
- ``seatview.py``: what a screen holds of a game: its face (``GameFace``) and its seats' faces
  (``SeatView``), never the session; ``replay.py``: a game watched move by move (``ReplayFace``).
- ``persistence.py``, ``save_schema.py``: save files, settings, folders; ``finished.py``: the
  finished games kept to watch again; ``stats.py``: statistics;
  ``history.py``: a record's states and scores; ``hints.py``: hints; ``tutorial.py``: the
  tutorial's script, ``tutorial_game.py``: its game against the scripted AI seat (its screen is
  ``scenes/tutorial.py`` with its director).

The package itself imports nothing: importing one of its modules (the settings, the saves) does
not load the authority and its AI worker, which the title's first frame does not need.
"""
