"""What a real speech back end says (issue 49): a solo game's first round played by keys through
the real loop, every announcement spoken by espeak-ng (the Linux fallback voice of
gonzaga/ui/speech/backends.py) into a WAV file instead of the speakers. Prints each file's
length and loudness with its words, so "heard" is a measured thing, not a claim.

    apt-get install -y espeak-ng
    SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy python lab/speech_wav.py OUT_DIR [--lang it]
"""
from __future__ import annotations

import argparse
import audioop
import sys
import tempfile
import wave
from pathlib import Path

import pygame

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gonzaga.app import App  # noqa: E402
from gonzaga.table import persistence  # noqa: E402
from gonzaga.table.session import SeatSpec  # noqa: E402
from gonzaga.ui.speech import Speech  # noqa: E402
from gonzaga.ui.speech.backends import ProcessVoice, espeak_voice  # noqa: E402
from gonzaga.ui.speech.narrator import Narrator  # noqa: E402


class WavVoice(ProcessVoice):
    """espeak-ng as the game runs it, its sound written to OUT/NNN.wav."""

    def __init__(self, base: ProcessVoice, out: Path) -> None:
        super().__init__("espeak-wav", base.command[:-1])
        self.out = out
        self.files: list[tuple[Path, str]] = []

    def say(self, text: str) -> None:
        f = self.out / f"{len(self.files):03d}.wav"
        self.files.append((f, text))
        saved = self.command
        self.command = saved + ["-w", str(f), "--"]
        try:
            super().say(text)
        finally:
            self.command = saved


def press(app, k, mod=0, frames=2):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode="", scancode=0))
    app.run_frames(frames)


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("out", type=Path)
    p.add_argument("--lang", default="en")
    a = p.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    base = espeak_voice(a.lang)
    if base is None:
        print("no espeak-ng here: apt-get install -y espeak-ng")
        return 2
    voice = WavVoice(base, a.out)
    import os
    os.environ.setdefault("GONZAGA_HOME", tempfile.mkdtemp())
    app = App(persistence.Settings(speed="instant", language=a.lang), size=(1280, 720))
    app.speech.close()
    app.speech = Speech("on", voice=voice)
    app.narrator = Narrator(app.speech)
    app.start_session([SeatSpec("Ann", "human", colour="red"), SeatSpec("Bot", "ai", "greedy", "blue")], 7)
    app.run_frames(3)
    g = app.game_screen()
    for _ in range(40):  # the first plan: Tab to a region, an action, Done (as a player would)
        if g.screen_mode() != "plan":
            break
        for want in ("region", "action", "done"):
            for _t in range(30):
                press(app, pygame.K_TAB, frames=1)
                w = app.stack.top.widgets.focus
                card = getattr(w, "card", "")
                if w is not None and w.enabled and ((want == "region" and card in g.state.region_cards())
                                                    or (want == "action" and card in ("A", "B"))
                                                    or (want == "done" and not card and w.label != "Menu"
                                                        and w.rect.colliderect(g.bottom_rect))):
                    break
            press(app, pygame.K_RETURN)
    for _ in range(100):
        app.run_frames(2)
        if app.stack.top is not g:
            press(app, pygame.K_RETURN)
        elif g.place is not None:
            break
    if g.place is not None:
        press(app, pygame.K_RETURN)
        press(app, pygame.K_b)
    app.speech.idle(120)
    app.close()
    total = 0.0
    for f, text in voice.files:
        if not f.exists():
            print(f"{f.name}  (cut before it was written)  {text[:90]}")
            continue
        with wave.open(str(f)) as w:
            frames = w.readframes(w.getnframes())
            secs = w.getnframes() / w.getframerate()
            rms = audioop.rms(frames, w.getsampwidth())
        total += secs
        print(f"{f.name}  {secs:5.1f} s  rms {rms:5d}  {text[:90]}")
    print(f"announcements={len(app.speech.history)} spoken_to_wav={len(voice.files)} seconds={total:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
