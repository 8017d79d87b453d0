"""Issue 45 (h45game): each new part test in tests/test_game_parts.py against one line of its part changed
(prints KILLED or SURVIVED per fault; every file is restored). Run from the project root:

    .venv/bin/python lab/h45_part_faults.py
"""
import sys

from part_faults import run  # lab/part_faults.py: the loop

M = [
 ("gonzaga/scenes/game/placing.py", "        confirm.enabled = pc.action() is not None", "        confirm.enabled = True", "test_the_placing_controls_offer"),
 ("gonzaga/scenes/game/placing.py", "            self.say(i18n.rule_text(why))\n            return\n        self.donate_pending = False", "            self.say('')\n            return\n        self.donate_pending = False", "test_the_placing_controls_donate"),
 ("gonzaga/scenes/game/placing.py", '        if not self.allow("send", action):', "        if False:", "test_the_placing_controls_gate"),
 ("gonzaga/scenes/game/planning.py", "        return max(cands, key=lambda k: _points(prev[k]))", "        return cands[0]", "test_the_previews_show"),
 ("gonzaga/scenes/game/planning.py", "        return height > 0.3 * self.board().h", "        return height > 0.5 * self.board().h", "test_the_previews_table_folds"),
 ("gonzaga/scenes/game/tips.py", "        if pos[0] < 0 or self.quiet(pos):", "        if pos[0] < 0:", "test_the_tips_name_a_city"),
 ("gonzaga/scenes/game/tips.py", '                if card is not None and self.seat() is not None:\n                    return ("card", card)', '                if card is not None:\n                    return ("card", card)', "test_the_tips_tell_a_cards"),
 ("gonzaga/scenes/tutorial_refusals.py", '        elif k == "region":\n            self.refuse("tut.wrong_region"', '        elif False:\n            self.refuse("tut.wrong_region"', "test_the_tutorials_refusals"),
 ("gonzaga/scenes/tutorial_box.py", "        avoid = [r for r in (target.inflate(W.sc(16), W.sc(16)) if target else None, self.plans.rect,", "        avoid = [r for r in (target.inflate(W.sc(16), W.sc(16)) if target else None,", "test_the_tutorials_box"),
 ("gonzaga/scenes/tutorial_steps.py", "                self.revealed = True\n", "                pass\n", "test_the_tutorials_steps"),
 ("gonzaga/scenes/replay_bar.py", "        if not (animate and self.rs.step == before + 1):", "        if True:", "test_the_replay_bar"),
]
run(M, only=sys.argv[1:])
