"""Issue 45 (h45fx): each test of the feedback's parts in tests/test_game_parts.py against one line
of its part changed (prints KILLED or SURVIVED per fault; every file is restored). From the project root:

    .venv/bin/python lab/h45fx_part_faults.py
"""
import sys

from part_faults import run  # lab/part_faults.py: the loop

M = [
 ("gonzaga/scenes/feedback_motion.py", '                start = self.score(e.seat, e.data["from"])', '                start = e.data["to"]',
  "test_the_motion_counts"),
 ("gonzaga/scenes/feedback_motion.py", "            self._end = self.anim.add(\"end_rows\", END_ROW_S * n, 0.2",
  "            self._end = self.anim.add(\"end_rows\", END_ROW_S * 2, 0.2", "test_the_motion_counts"),
 ("gonzaga/scenes/feedback_motion.py", "        d = delay * self.scale()", "        d = 0.0", "test_the_motion_counts"),
 ("gonzaga/scenes/feedback_banners.py", "                box.x = r.right + 8", "                pass", "test_the_banners_stack"),
 ("gonzaga/scenes/feedback_banners.py", "        top = b.y + 53 + below * (size[1] + 8)", "        top = b.y + 53 + below * size[1]",
  "test_the_banners_stack"),
 ("gonzaga/scenes/feedback_banners.py", "        if self._choice is not None and choice != self._choice and any(choice):",
  "        if self._choice is not None and any(choice):", "test_the_ui_watch"),
 ("gonzaga/scenes/feedback_banners.py", '            self.anim.clear("your_turn")\n', "", "test_the_ui_watch"),
 ("gonzaga/scenes/feedback_chart.py", "r if r.w >= W.sc(220) and r.h >= need else None", "r if r.w >= W.sc(220) else None",
  "test_the_end_chart"),
 ("gonzaga/scenes/feedback_chart.py", "        r.bottomright = (b.right - W.sc(12), b.bottom - W.sc(12))",
  "        r.bottomright = (b.right, b.bottom)", "test_the_end_chart"),
 ("gonzaga/scenes/feedback.py", "        if self.record_stats:", "        if True:", "test_the_feedback_counts"),
 ("gonzaga/scenes/feedback.py", "        if self.under_banners is not None:\n            self.under_banners(surf)\n        over",
  "        over", "test_the_feedback_counts"),
]
run(M, only=sys.argv[1:])
