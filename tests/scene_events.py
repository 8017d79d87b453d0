"""Posting real pygame events to the app and letting it run (shared by the scene tests)."""
from __future__ import annotations

import pygame


def post(ev_type, **kw):
    pygame.event.post(pygame.event.Event(ev_type, **kw))


def click(app, pos, frames=1, button=1):
    """Move the pointer to ``pos``, press and release ``button`` there, run ``frames`` frames."""
    pos = (int(pos[0]), int(pos[1]))
    post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    post(pygame.MOUSEBUTTONDOWN, pos=pos, button=button)
    post(pygame.MOUSEBUTTONUP, pos=pos, button=button)
    app.run_frames(frames)


def key(app, k, mod=0, frames=1):
    """Press and release key ``k`` (with modifiers ``mod``), run ``frames`` frames."""
    post(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)
    post(pygame.KEYUP, key=k, mod=mod, unicode="", scancode=0)
    app.run_frames(frames)
