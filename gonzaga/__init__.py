"""Gonzaga, digital edition."""
import time as _time

START = _time.perf_counter()  # as early as possible: first_frame_ms counts from here
