"""The game screen, one scene in several rooms. :class:`GameScene` is assembled from parts
(mixins), each a module with one kind of code:

* ``scene``: the scene itself: its state (the view of the seat it shows), mode, layout and
  buttons, the flow run every frame (``_sync``: the curtain, the reveal, whose hand is shown),
  the events, and ``draw``, which calls the parts below in order;
* ``hand``: the planning bar of the human whose hand is shown, and opening and closing it;
* ``placing``: the controls and the mouse and keys while a human places (rotate, wedding,
  donate, confirm), the ghost's labels;
* ``camera``: zoom and pan; ``view_memory``: the view remembered per game in the views file (a
  part with explicit inputs, composed: ``ViewMemory``);
* ``tips``: what the pointer (or T) rests on, in words;
* ``planning``: the planning preview (every region and action pair, its best points);
* ``panel``: the top bar and the seats panel (seats, turn order, log, the AI's move);
* ``bar``: the bottom bar between hands, and the end-of-game table.

The screen holds only the game's face (``table/seatview.py``), never the session.

The screen's proportions and the words the board renderer shows are in ``render/game_sizes.py``.

The game screen's helpers that other screens subclass or reuse live beside it in
``scenes/``: ``placement`` (the placement controller), ``preview`` (plan previews),
``feedback`` (sound and motion), ``assist`` (hints and take-backs), ``remote`` (an online
game's banners).
"""
from .scene import GameScene

__all__ = ["GameScene"]
