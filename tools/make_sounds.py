"""Synthesise the game's sounds into assets/sounds/ (original: made here, from sine waves and
filtered noise; no recording, no sample library).

    .venv/bin/pip install -e '.[sound]'      # numpy, for this tool only
    .venv/bin/python tools/make_sounds.py    # writes assets/sounds/*.wav; --check compares only

Every effect is a mono 16-bit WAV at 22050 Hz; the music is a mono 16-bit WAV at 11025 Hz (a
calm pad: nothing above 3 kHz) that loops without a seam: each of its partials makes a whole
number of periods in the loop, its chords cross-fade around the loop's end, and the notes of
its melody that run past the end are added back at the start (the loop is rendered on a
circle). The output is deterministic (seeded noise); the files are committed, the game never
synthesises or downloads anything at run time. ``--check`` rebuilds in memory and exits 1 when
a committed file differs.
"""
from __future__ import annotations

import io
import sys
import wave
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "assets" / "sounds"
SR = 22050  # effects
MUSIC_SR = 11025
LOOP_S = 12.0  # the music loop: four chords of 3 s

# ---------------------------------------------------------------- building blocks


def _t(d: float, sr: int = SR) -> np.ndarray:
    return np.arange(int(round(d * sr))) / sr


def note(f: float) -> float:
    """A note name's frequency: note(69) is A4 (MIDI numbers)."""
    return 440.0 * 2 ** ((f - 69) / 12)


def tone(freq: float, d: float, partials=((1, 1.0),), decay: float = 0.3, attack: float = 0.004,
         sr: int = SR, partial_decay: float = 1.0) -> np.ndarray:
    """Sum of sine partials (multiple, amplitude), each decaying faster the higher it is."""
    t = _t(d, sr)
    out = np.zeros_like(t)
    for mult, amp in partials:
        tau = decay / (mult ** partial_decay)
        out += amp * np.sin(2 * np.pi * freq * mult * t) * np.exp(-t / tau)
    return out * _attack(t, attack)


def _attack(t: np.ndarray, a: float) -> np.ndarray:
    return np.clip(t / a, 0.0, 1.0) if a > 0 else np.ones_like(t)


def pluck(freq: float, d: float, decay: float = 0.35, bright: float = 0.5, sr: int = SR) -> np.ndarray:
    parts = [(k, bright ** (k - 1) / k) for k in range(1, 7) if freq * k < sr * 0.42]
    return tone(freq, d, parts, decay, 0.003, sr, partial_decay=1.2)


def bell(freq: float, d: float, decay: float = 1.0, sr: int = SR) -> np.ndarray:
    """An inharmonic bell (partials after Risset's bell)."""
    t = _t(d, sr)
    ratios = [(0.56, 1.0, 1.0), (0.92, 0.67, 0.9), (1.19, 1.0, 0.65), (1.71, 1.8, 0.55), (2.0, 2.67, 0.33),
              (2.74, 1.67, 0.3), (3.0, 1.46, 0.25), (3.76, 1.33, 0.2), (4.07, 1.33, 0.15)]
    out = np.zeros_like(t)
    for r, amp, dec in ratios:
        if freq * r < sr * 0.42:
            out += amp * np.sin(2 * np.pi * freq * r * t) * np.exp(-t / (decay * dec))
    return out * _attack(t, 0.002)


def noise(d: float, lo: float, hi: float, seed: int, sr: int = SR) -> np.ndarray:
    """White noise limited to the band lo..hi Hz (by FFT)."""
    n = int(round(d * sr))
    x = np.random.default_rng(seed).standard_normal(n)
    spec = np.fft.rfft(x)
    f = np.fft.rfftfreq(n, 1 / sr)
    spec[(f < lo) | (f > hi)] = 0
    y = np.fft.irfft(spec, n)
    return y / (np.max(np.abs(y)) + 1e-9)


def place(buf: np.ndarray, snd: np.ndarray, at: float, gain: float = 1.0, sr: int = SR) -> None:
    i = int(round(at * sr))
    j = min(len(buf), i + len(snd))
    buf[i:j] += gain * snd[: j - i]


def finish(x: np.ndarray, peak: float = 0.7, sr: int = SR) -> np.ndarray:
    """Normalised to ``peak`` with a 3 ms fade in and a 20 ms fade out (no click at either end)."""
    x = x - np.mean(x)
    x = x / (np.max(np.abs(x)) + 1e-12) * peak
    fin = min(len(x), int(0.003 * sr))
    fout = min(len(x), int(0.02 * sr))
    x[:fin] *= np.linspace(0, 1, fin)
    x[len(x) - fout:] *= np.linspace(1, 0, fout)
    return x


# ---------------------------------------------------------------- the effects


def card() -> np.ndarray:
    """Choosing a card: a short paper tick."""
    d = 0.07
    t = _t(d)
    x = noise(d, 1800, 6500, 1) * np.exp(-t / 0.010)
    x += 0.5 * np.sin(2 * np.pi * 950 * t) * np.exp(-t / 0.018)
    return finish(x, 0.55)


def reveal() -> np.ndarray:
    """The reveal: three cards turned over, then a soft chime."""
    buf = np.zeros(int(0.55 * SR))
    t = _t(0.06)
    for k, at in enumerate((0.0, 0.085, 0.17)):
        flick = noise(0.06, 900 + 300 * k, 5000, 10 + k) * np.exp(-t / 0.014)
        place(buf, flick, at, 0.8)
    place(buf, bell(note(81), 0.33, 0.25), 0.22, 0.35)
    return finish(buf, 0.6)


def fief() -> np.ndarray:
    """Placing a fief: a wooden piece set down on the board."""
    d = 0.32
    t = _t(d)
    f = 95 + 110 * np.exp(-t / 0.03)  # a quick drop in pitch: a knock
    phase = 2 * np.pi * np.cumsum(f) / SR
    x = np.sin(phase) * np.exp(-t / 0.07) + 0.35 * np.sin(2.7 * phase) * np.exp(-t / 0.03)
    x += 0.5 * noise(d, 200, 2500, 2) * np.exp(-t / 0.008)
    return finish(x, 0.75)


def ring() -> np.ndarray:
    """Placing a ring: a small metal ring on wood."""
    d = 0.55
    t = _t(d)
    f0 = note(91)  # G6
    x = (np.sin(2 * np.pi * f0 * t) * np.exp(-t / 0.22) + 0.5 * np.sin(2 * np.pi * f0 * 2.71 * t) * np.exp(-t / 0.09)
         + 0.25 * np.sin(2 * np.pi * f0 * 1.5 * t + 0.3) * np.exp(-t / 0.12))
    x += 0.4 * noise(d, 3000, 9000, 3) * np.exp(-t / 0.004)
    return finish(x, 0.55)


def donation() -> np.ndarray:
    """A donation: coins into the Church's box."""
    buf = np.zeros(int(0.45 * SR))
    t = _t(0.12)
    for k, (at, f) in enumerate(((0.0, 3150), (0.075, 3620), (0.16, 2890), (0.21, 3900))):
        clink = (np.sin(2 * np.pi * f * t) + 0.6 * np.sin(2 * np.pi * f * 1.48 * t)) * np.exp(-t / 0.035)
        clink += 0.3 * noise(0.12, 4000, 9000, 20 + k) * np.exp(-t / 0.004)
        place(buf, clink, at, 1.0 - 0.15 * k)
    return finish(buf, 0.5)


def points() -> np.ndarray:
    """Points scored: two rising plucked notes."""
    buf = np.zeros(int(0.36 * SR))
    place(buf, pluck(note(79), 0.3, 0.16), 0.0, 0.8)
    place(buf, pluck(note(84), 0.27, 0.18), 0.085, 1.0)
    return finish(buf, 0.55)


def _brass(f: float, d: float, decay: float = 0.5) -> np.ndarray:
    t = _t(d)
    parts = sum((0.8 ** k / k) * np.sin(2 * np.pi * f * k * t) for k in range(1, 8) if f * k < SR * 0.4)
    env = np.clip(t / 0.018, 0, 1) * np.exp(-t / decay)
    return parts * env


def league() -> np.ndarray:
    """A sea league: a short fanfare."""
    buf = np.zeros(int(0.95 * SR))
    for k, n in enumerate((72, 76, 79)):
        place(buf, _brass(note(n), 0.2, 0.12), 0.11 * k, 0.8)
    for n in (72, 76, 79, 84):
        place(buf, _brass(note(n), 0.62, 0.3), 0.33, 0.5)
    return finish(buf, 0.7)


def last_turn() -> np.ndarray:
    """The Last Turn card fires: a low bell."""
    d = 1.25
    x = bell(note(55), d, 0.9) + 0.25 * bell(note(67), d, 0.5)
    return finish(x, 0.7)


def curtain() -> np.ndarray:
    """The privacy curtain: cloth drawn across."""
    d = 0.5
    t = _t(d)
    env = np.sin(np.pi * t / d) ** 2
    x = noise(d, 150, 1400, 4) * env + 0.4 * noise(d, 1400, 3200, 5) * env ** 3
    return finish(x, 0.45)


def your_turn() -> np.ndarray:
    """Your turn: a gentle two-tone chime."""
    buf = np.zeros(int(0.55 * SR))
    parts = ((1, 1.0), (2, 0.25), (3, 0.08))
    place(buf, tone(note(76), 0.4, parts, 0.22), 0.0, 0.8)
    place(buf, tone(note(81), 0.42, parts, 0.28), 0.12, 1.0)
    return finish(buf, 0.55)


def win() -> np.ndarray:
    """The end of the game, won: a rising arpeggio and a major chord."""
    buf = np.zeros(int(1.3 * SR))
    for k, n in enumerate((72, 76, 79, 84)):
        place(buf, pluck(note(n), 0.4, 0.25, 0.6), 0.09 * k, 0.8)
    for n in (60, 72, 76, 79, 84):
        place(buf, _brass(note(n), 0.92, 0.45), 0.38, 0.35)
    return finish(buf, 0.72)


def loss() -> np.ndarray:
    """The end of the game, lost: a slow falling minor line."""
    buf = np.zeros(int(1.15 * SR))
    for k, n in enumerate((69, 65, 62)):
        place(buf, tone(note(n), 0.7, ((1, 1.0), (2, 0.3), (3, 0.12)), 0.35, 0.02), 0.22 * k, 0.8)
    place(buf, tone(note(50), 0.7, ((1, 1.0), (2, 0.4)), 0.4, 0.03), 0.44, 0.5)
    return finish(buf, 0.6)


EFFECTS = {
    "card": card, "reveal": reveal, "fief": fief, "ring": ring, "donation": donation, "points": points,
    "league": league, "last_turn": last_turn, "curtain": curtain, "your_turn": your_turn, "win": win,
    "loss": loss,
}


# ---------------------------------------------------------------- the music loop


def _on_loop(f: float) -> float:
    """``f`` moved to the nearest frequency that makes a whole number of periods in the loop."""
    return round(f * LOOP_S) / LOOP_S


def music() -> np.ndarray:
    """A calm loop: four pad chords (D, Bm, G, A) with a sparse plucked line above."""
    sr = MUSIC_SR
    n = int(LOOP_S * sr)
    t = np.arange(n) / sr
    out = np.zeros(n)
    chords = [(50, (62, 66, 69, 73)), (47, (62, 66, 71, 74)), (43, (59, 62, 67, 71)), (45, (61, 64, 69, 76))]
    span = LOOP_S / len(chords)
    xf = 1.2  # seconds of cross-fade between chords (across the loop's end too)
    for i, (bass, voices) in enumerate(chords):
        start = i * span
        tau = np.mod(t - start + xf / 2, LOOP_S) - xf / 2  # time in this chord, on the circle
        env = np.zeros(n)
        rise = (tau >= -xf / 2) & (tau < xf / 2)
        env[rise] = np.sin(np.pi / 2 * (tau[rise] + xf / 2) / xf) ** 2
        env[(tau >= xf / 2) & (tau < span - xf / 2)] = 1.0
        fall = (tau >= span - xf / 2) & (tau < span + xf / 2)
        env[fall] = np.cos(np.pi / 2 * (tau[fall] - (span - xf / 2)) / xf) ** 2
        pad = np.zeros(n)
        for m in voices:
            f = _on_loop(note(m))
            f2 = f + 2 / LOOP_S  # a slow shimmer, still whole periods
            pad += np.sin(2 * np.pi * f * t) + 0.6 * np.sin(2 * np.pi * f2 * t + 1.0)
            pad += 0.18 * np.sin(2 * np.pi * 2 * f * t)
        fb = _on_loop(note(bass))
        pad += 1.6 * np.sin(2 * np.pi * fb * t) + 0.3 * np.sin(2 * np.pi * 2 * fb * t)
        out += env * pad
    # the melody, rendered on the circle: a note running past the end goes on at the start
    melody = [(0.75, 74), (1.9, 78), (3.75, 74), (4.9, 73), (6.75, 71), (7.9, 74), (9.4, 73), (10.75, 69),
              (11.6, 71)]
    line = np.zeros(n)
    for at, m in melody:
        p = pluck(note(m), 1.6, 0.45, 0.35, sr)
        idx = (int(round(at * sr)) + np.arange(len(p))) % n
        np.add.at(line, idx, p)
    out = out / np.max(np.abs(out)) * 0.55 + line / np.max(np.abs(line)) * 0.35
    out -= np.mean(out)
    return out / np.max(np.abs(out)) * 0.5


# ---------------------------------------------------------------- writing


def wav_bytes(x: np.ndarray, sr: int) -> bytes:
    pcm = np.clip(np.round(x * 32767), -32768, 32767).astype("<i2")
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(sr)
        w.writeframes(pcm.tobytes())
    return buf.getvalue()


def build() -> dict[str, bytes]:
    files = {f"{name}.wav": wav_bytes(fn(), SR) for name, fn in EFFECTS.items()}
    files["music.wav"] = wav_bytes(music(), MUSIC_SR)
    return files


def main(argv: list[str]) -> int:
    files = build()
    if "--check" in argv:
        bad = [n for n, data in files.items() if not (OUT / n).exists() or (OUT / n).read_bytes() != data]
        for n in bad:
            print(f"differs: assets/sounds/{n}")
        return 1 if bad else 0
    OUT.mkdir(parents=True, exist_ok=True)
    total = 0
    for name, data in files.items():
        (OUT / name).write_bytes(data)
        total += len(data)
        print(f"assets/sounds/{name}: {len(data) // 1024} KB")
    print(f"total {total // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
