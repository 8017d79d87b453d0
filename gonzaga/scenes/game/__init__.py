"""The game screen, one scene composed of parts. :class:`GameScene` owns the parts, each made with
explicit inputs (each reads what its constructor is given, never the scene):

* ``scene``: the scene itself: its state (the view of the seat it shows), mode, layout and
  buttons, the flow run every frame (``_sync``: the curtain, the reveal, whose hand is shown),
  the events, and ``draw``, which calls the parts below in order;
* parts: ``top.TopBar`` (the round, the Last Turn card, who is to act), ``panel.SeatsPanel``
  (the seats, the turn order, the log, where the table of best points goes in a wide panel),
  ``bar.BottomBar`` (the bottom bar's words and pictures, the end-of-game table), ``hand.Hand``
  (the open hand's cards and the plan chosen), ``placing.Placing`` (the controls and the mouse
  and keys while a human places, the ghost's labels), ``planning.PlanPreviews`` (every region and
  action pair's best points, on the map and in their table), ``tips.Tips`` (what the pointer, or
  T, rests on, in words), ``camera.Camera`` (zoom and pan), ``view_memory.ViewMemory`` (the zoom
  kept per game in the views file);
* what the screen's siblings configure: the gates ``Hand.allow``, ``Placing.allow``,
  ``PlanPreviews.allow`` and ``Tips.quiet`` (the tutorial's refusals and box:
  ``scenes/tutorial_refusals.py``, ``tutorial_box.py``), ``map_marks`` (the tutorial's marks on
  the map) and ``controls`` (a bar in place of the live game's hand and placing controls: the
  replay's, ``scenes/replay_bar.py``).

The screen holds only the game's face (``table/seatview.py``), never the session.

The screen's proportions and the words the board renderer shows are in ``render/game_sizes.py``.

The game screen's helpers that other screens subclass or reuse live beside it in
``scenes/``: ``placement`` (the placement controller), ``preview`` (plan previews),
``feedback`` (sound and motion), ``assist`` (hints and take-backs), ``remote`` (an online
game's banners).
"""
from .scene import GameScene

__all__ = ["GameScene"]
