"""tools/bench_compare.py: medians per tree and the sign of a change (positive is better)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

import bench_compare  # noqa: E402


def test_a_faster_rate_and_a_shorter_time_are_both_positive_changes():
    old = [{"playouts_per_s": 100.0, "frame_ms_p99": 10.0}, {"playouts_per_s": 300.0, "frame_ms_p99": 30.0},
           {"playouts_per_s": 200.0, "frame_ms_p99": 20.0}]
    new = [{"playouts_per_s": 220.0, "frame_ms_p99": 18.0}]
    rows = {k: (o, n, round(c, 3)) for k, o, n, c in bench_compare.compare(old, new)}
    assert rows["playouts_per_s"] == (200.0, 220.0, 10.0)  # median 200 -> 220: 10% more
    assert rows["frame_ms_p99"] == (20.0, 18.0, 10.0)  # median 20 -> 18 ms: 10% less time


def test_a_tree_that_is_not_the_project_is_refused(tmp_path, capsys):
    assert bench_compare.main([str(tmp_path), str(tmp_path)]) == 2
    assert "is not a tree of the project" in capsys.readouterr().err
