"""Drawing with pygame-ce: the theme (colours, fonts), the board and its pieces.

Nothing in this package changes game state: every function takes plain data in.
See :mod:`gonzaga.render.board_view` for the board renderer's API.
"""
