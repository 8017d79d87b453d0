"""Issue 45 (h45tut): each test of the tutorial's director and map's move in tests/test_game_parts.py against
one line of its part changed, and the scene test of the game screen's seam (tests/test_tutorial.py) against
one of the screen's calls to the director removed (prints KILLED or SURVIVED per fault, then n/n killed;
every file is restored). Run from the project root:

    .venv/bin/python lab/h45_tut_faults.py [TEST_NAME_PART ...]
"""
import sys

from part_faults import run  # lab/part_faults.py: the loop

D = "gonzaga/scenes/tutorial_director.py"
Z = "gonzaga/scenes/tutorial_zoom.py"
MOVES = "test_the_tutorials_director_moves_on"
CLICKS = "test_the_tutorials_director_refuses"
GOES_ON = "test_the_tutorials_director_goes_on"
SKIPS = "test_the_tutorials_director_skips"
CLEARS = "test_the_tutorials_director_clears"
ZOOM = "test_the_tutorials_zoom"
G = "gonzaga/scenes/game/scene.py"
SEAM = "test_the_tutorials_screen_asks_its_director"
M = [
    (D, "            self.steps.next_pressed = True", "            pass", MOVES),
    (D, '        self.steps.next_pressed = False\n        self.refusals.msg = ""', "        self.steps.next_pressed = False", MOVES),
    (D, "            self.steps.step_i += 1\n            self.zoom.show()", "            self.steps.step_i += 1", MOVES),
    (D, "            self.next_button.enabled = self.steps.until(self.step.until)", "            self.next_button.enabled = True", MOVES),
    (D, "        waiting = step.kind == \"wait\" or (step.kind == \"info\" and not self.steps.until(step.until))",
     "        waiting = step.kind == \"wait\"", MOVES),
    (D, "        self.box().draw(surf, 0.5 + 0.5 * math.sin(t * 5.0))", "        self.box().draw(surf, math.sin(t * 5.0))", MOVES),
    (D, "        self._t0 = self.clock()\n        if self.steps.step_i", "        if self.steps.step_i", MOVES),
    (D, "        return [self.text()] + ([msg] if msg else [])", "        return [self.text()]", MOVES),
    (D, '                self.refusals.refuse("tut.read_first" if k == "info" else "tut.not_now")',
     '                self.refusals.refuse("tut.not_now")', CLICKS),
    (D, "            if ev.type == pygame.MOUSEBUTTONDOWN:\n                self.refusals.refuse(",
     "            if True:\n                self.refusals.refuse(", CLICKS),
    (D, "        if ev.type in CLICKS and self.box().rect.collidepoint(ev.pos):", "        if False:", CLICKS),
    (D, "        return any(w.visible and w.rect.collidepoint(pos)", "        return False and any(w.visible and w.rect.collidepoint(pos)", CLICKS),
    (D, "ARROWS = (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN)", "ARROWS = ()", CLICKS),
    (D, "            if h is not None and not self.refusals.ring(h):", "            if False:", CLICKS),
    (D, "                h = pc.cursor", "                h = None", CLICKS),
    (D, "        self.exits.pause()", "        pass", CLICKS),
    (D, "            self.steps.section += 1\n", "", GOES_ON),
    (D, "        if not (have - want) and all(t.split()[1] == str(T.AI)", "        if not (have - want) and all(t.split()[1] == str(T.YOU)", GOES_ON),
    (D, "            self.exits.restart(nxt.id)", "            pass", GOES_ON),
    (D, "        if done not in self.progress.done:\n            self.progress.done.append(done)", "        if done not in self.progress.done:\n            pass", GOES_ON),
    (D, "        if self.sec.id not in self.progress.done:\n            self.progress.done.append(self.sec.id)",
     "        if self.sec.id not in self.progress.done:\n            pass", SKIPS),
    (D, "            self.exits.restart(self.progress.section)", "            pass", SKIPS),
    (D, "        self.progress.section = self.sec.id\n", "", SKIPS),
    (D, "        self.progress.finished = True", "        pass", SKIPS),
    (D, "        self.exits.toast(i18n.t(\"tut.finished\"))", "        pass", SKIPS),
    (D, "            if k == \"finish\":\n                self.finish()\n                return True", "            if k == \"finish\":\n                return True", SKIPS),
    (D, "        \"\"\"Never a curtain: one player at the screen, who may see everything it shows.\"\"\"\n        return False",
     "        return True", SKIPS),
    (D, "        self.exits.new_game()", "        pass", SKIPS),
    (D, "        self.face.close()", "        pass", SKIPS),
    (D, "        if key == self._ghost_key:\n            return", "        if False:\n            return", CLEARS),
    (D, "        if act is not None and T.accepts(self.view(), self.step, act):", "        if act is not None:", CLEARS),
    (D, '            self.say("")', "            pass", CLEARS),
    (D, "        key = None if pc is None else (pc.mode, pc.anchor, pc.rotation, tuple(pc.rings))",
     "        key = None if pc is None else (pc.mode, pc.anchor, tuple(pc.rings))", CLEARS),
    (Z, "        if r.zoom < 1.99:", "        if False:", ZOOM),
    (Z, "                r.set_view_state(start)  # the frames between go from here to there", "                pass", ZOOM),
    (Z, '                r.set_view_state({k: lerp(a[k], b[k], tw.p) for k in ("zoom", "cx", "cy")})', "                pass", ZOOM),
    (Z, "        if not hx or r is None:\n            return", "        if r is None:\n            return", ZOOM),
    (Z, "            self.shown = True\n            self.show()", "            self.shown = True", ZOOM),
    (G, "        if self.director is not None or self.online is not None:", "        if self.online is not None:", SEAM),
    (G, "            return self.director.open_menu()", "            pass", SEAM),
    (G, "            self.director.leave()", "            pass", SEAM),
    (G, "            return self.director.play_again()", "            pass", SEAM),
    (G, "        return self.director.visible_text() + out if self.director is not None else out",
     "        return out + self.director.visible_text() if self.director is not None else out", SEAM),
]
run(M, lambda test: "tests/test_tutorial.py" if test == SEAM else "tests/test_game_parts.py", sys.argv[1:])
