"""The illustrated rules reference (issue 11): the topics in a list with a search box, and a
page per rule with its text (the printed rulebook's words, no spec ids) and its pictures,
drawn by the board renderer from fixture positions (``ui/rule_pictures.py``).

Opened from the title screen and the game menu ("Rules"), from the "?" in a corner of every
screen (the page for that screen) and from a refusal's "why?" (the page of the rule that
refused). Up/Down change the topic, typing searches, the wheel scrolls, Esc closes.
"""
from __future__ import annotations

from functools import partial
from typing import Optional

import pygame

from ..ui import rule_pictures
from ..words import i18n, rules_pages
from ..ui import widgets as W
from ..ui.widgets import Button, TextField
from .base import ModalScene
from ..render.game_sizes import board_texts

LIST_W = 290
ROW_H = 36


def title(page_id: str) -> str:
    return i18n.t(f"ref.page.{page_id}")


def caption(pid: str, content) -> str:
    """A picture's caption; the tables' numbers come from the fixture the picture shows."""
    if pid == "group":
        e = rule_pictures.examples(content).get("group")
        return i18n.t("ref.pic.group", n=e.count if e else 4)
    if pid in ("reveal", "reveal_king"):
        st = rule_pictures.reveal_state(content, pid == "reveal_king")
        cards = [st.seats[i].card for i in st.order]
        if pid == "reveal":
            return i18n.t("ref.pic.reveal", low=cards[2], high=cards[3])
        return i18n.t("ref.pic.reveal_king", first=cards[0], second=cards[1])
    return i18n.t(f"ref.pic.{pid}")


class PageButton(Button):
    """A rules page's row in the list: its page's id with it."""

    def __init__(self, page: str, *args, **kw):
        super().__init__(*args, **kw)
        self.page = page


class RulesReferenceScene(ModalScene):
    opaque = False
    name = "rules"

    def __init__(self, app, page: Optional[str] = None):
        super().__init__(app)
        self.page = page if page in rules_pages.BY_ID else rules_pages.PAGES[0].id
        self.query = ""
        self.matches = [p.id for p in rules_pages.PAGES]
        self.list_scroll = 0
        self.page_scroll = 0
        self.search = TextField(self.query, max_len=30)  # placed (a new one) by each layout
        self._page_img: Optional[pygame.Surface] = None
        self._page_key: Optional[tuple[str, tuple[int, int], str, float]] = None

    # ------------------------------------------------------------ layout

    row_h = ROW_H
    list_w = LIST_W

    def layout(self, size) -> None:
        w, h = size
        sc = W.sc  # the interface scale (issue 10)
        self.row_h, self.list_w = sc(ROW_H), sc(LIST_W)
        self.box = pygame.Rect(0, 0, min(sc(1400), w - 40), h - 40)
        self.box.center = (w // 2, h // 2)
        self.list_rect = pygame.Rect(self.box.x + sc(24), self.box.y + sc(126), self.list_w, self.box.h - sc(126 + 80))
        self.page_rect = pygame.Rect(self.list_rect.right + sc(28), self.box.y + sc(76),
                                     self.box.right - sc(30) - self.list_rect.right - sc(28), self.box.h - sc(76 + 80))
        self.widgets.clear()
        self.search = self.widgets.add(TextField(self.query, (self.box.x + sc(24), self.box.y + sc(76), self.list_w,
                                                              sc(40)), max_len=30, on_change=self._searched, px=17))
        self.search.editing = True
        self.buttons: list[PageButton] = []
        for _n, pid in enumerate(self.matches):
            b = PageButton(pid, title(pid), partial(self.show, pid), (0, 0, self.list_w, self.row_h - sc(4)),
                           style="secondary", selected=(pid == self.page), px=16)
            self.buttons.append(b)
            self.widgets.add(b)
        self._place_list()
        self.widgets.add(Button(i18n.t("common.back"), self.close,
                                (self.box.right - sc(170), self.box.bottom - sc(62), sc(140), sc(46))))
        self._page_img = None

    def _place_list(self) -> None:
        limit = max(0, len(self.buttons) * self.row_h - self.list_rect.h)
        self.list_scroll = max(0, min(limit, self.list_scroll))
        for n, b in enumerate(self.buttons):
            b.rect.topleft = (self.list_rect.x, self.list_rect.y + n * self.row_h - self.list_scroll)
            b.visible = self.list_rect.contains(b.rect)

    def _searched(self, text: str) -> None:
        self.query = text
        self.matches = rules_pages.search(text, i18n.language(), title=lambda p: title(p.id))
        if self.matches and text.strip():  # the best match is shown as you type
            self.page = self.matches[0]
            self.page_scroll = 0
        self.list_scroll = 0
        self.layout(self.app.size)

    def show(self, page_id: str) -> None:
        if page_id in rules_pages.BY_ID:
            self.page = page_id
            self.page_scroll = 0
            self._page_img = None
            for b in self.buttons:
                b.selected = b.page == page_id
            self._ensure_listed()

    def _ensure_listed(self) -> None:
        for n, b in enumerate(self.buttons):
            if b.page == self.page:
                top, bottom = n * self.row_h, n * self.row_h + self.row_h
                if top < self.list_scroll:
                    self.list_scroll = top
                elif bottom > self.list_scroll + self.list_rect.h:
                    self.list_scroll = bottom - self.list_rect.h
        self._place_list()

    # ------------------------------------------------------------ the page

    def page_lines(self) -> list[str]:
        """The page's title, its paragraphs and its pictures' captions (what a test reads)."""
        content = self.app.content
        page = rules_pages.BY_ID[self.page]
        return ([title(self.page)] + rules_pages.page_text(self.page, i18n.language())
                + [caption(p, content) for p in page.pictures])

    def _render_page(self) -> pygame.Surface:
        """The whole page (text and pictures) as one surface, scrolled inside ``page_rect``."""
        key = (self.page, self.page_rect.size, i18n.language(), W.ui_scale())
        if self._page_img is not None and self._page_key == key:
            return self._page_img
        content = self.app.content
        page = rules_pages.BY_ID[self.page]
        width = self.page_rect.w
        parts: list[tuple[pygame.Surface, int, int]] = []  # (surface, x, y)
        y = 0
        head = W.text(title(self.page), "title", 34, W.TEXT)
        parts.append((head, 0, y))
        y += head.get_height() + 10
        for para in rules_pages.page_text(self.page, i18n.language()):
            img = W.text(para, "sans", 18, W.TEXT, wrap=width)
            parts.append((img, 0, y))
            y += img.get_height() + 10
        pics = page.pictures
        if pics:
            y += 8
            gap = 18
            wide = len(pics) == 1
            pw = int(min(W.sc(680 if wide else 440), (width - gap * (len(pics) - 1)) / len(pics)))
            ph = int(pw * max(rule_pictures.ASPECT.get(pid, 0.68) for pid in pics))
            x = 0
            row_h = 0
            for pid in pics:
                img = rule_pictures.picture(pid, (pw, ph), content, i18n.language(), texts=board_texts())
                cap = W.text(caption(pid, content), "sans_italic", 15, W.TEXT_SOFT, wrap=pw)
                parts.append((img, x, y))
                parts.append((cap, x, y + ph + 6))
                row_h = max(row_h, ph + 6 + cap.get_height())
                x += pw + gap
            y += row_h + 10
        surf = pygame.Surface((width, max(1, y)), pygame.SRCALPHA)
        for img, x, yy in parts:
            surf.blit(img, (x, yy))
        self._page_img, self._page_key = surf, key
        return surf

    # ------------------------------------------------------------ events

    def handle(self, ev) -> bool:
        if ev.type == pygame.KEYDOWN:
            if ev.key == pygame.K_ESCAPE:
                if self.query:
                    self.search.value = ""
                    self._searched("")
                else:
                    self.close()
                return True
            if ev.key in (pygame.K_UP, pygame.K_DOWN):
                ids = self.matches or [self.page]
                i = ids.index(self.page) if self.page in ids else 0
                self.show(ids[(i + (1 if ev.key == pygame.K_DOWN else -1)) % len(ids)])
                return True
            if ev.key in (pygame.K_PAGEDOWN, pygame.K_PAGEUP):
                self._scroll_page(1 if ev.key == pygame.K_PAGEDOWN else -1, self.page_rect.h - 40)
                return True
        if ev.type == pygame.MOUSEWHEEL:
            pos = pygame.mouse.get_pos()
            if self.list_rect.collidepoint(pos):
                self.list_scroll -= ev.y * self.row_h
                self._place_list()
            else:
                self._scroll_page(-ev.y, 50)
            return True
        self.widgets.handle(ev)
        self.search.editing = True  # typing always searches
        return True

    def _scroll_page(self, sign: int, step: int) -> None:
        limit = max(0, self._render_page().get_height() - self.page_rect.h)
        self.page_scroll = max(0, min(limit, self.page_scroll + sign * step))

    def visible_text(self) -> list[str]:
        return self.page_lines() + [b.label for b in self.buttons if b.visible]

    # ------------------------------------------------------------ drawing

    def draw(self, surf) -> None:
        W.dim(surf, 160)
        W.panel(surf, self.box, W.PANEL, W.PANEL_EDGE, 14, 3)
        sc = W.sc
        W.blit_text(surf, i18n.t("ref.heading"), (self.box.x + sc(24), self.box.y + sc(16)), "title", 40, W.TEXT)
        W.blit_text(surf, W.fit_text(i18n.t("ref.keys"), "sans", 14, self.box.w - sc(260)),
                    (self.box.right - sc(30), self.box.y + sc(34)), "sans", 14, W.TEXT_SOFT, "topright")
        pygame.draw.line(surf, W.PANEL_EDGE, (self.list_rect.right + sc(16), self.box.y + sc(76)),
                         (self.list_rect.right + sc(16), self.box.bottom - sc(80)), 1)
        clip = surf.get_clip()
        surf.set_clip(self.list_rect)
        self.widgets.draw(surf)
        surf.set_clip(clip)
        self.search.draw(surf)
        if not self.search.value:
            W.blit_text(surf, i18n.t("ref.search"), (self.search.rect.x + 10, self.search.rect.centery), "sans", 16,
                        W.SECONDARY_OFF_TEXT, "midleft")  # (the palette's: 7:1 in high contrast)
        for w in self.widgets.items:  # Back, outside the list
            if isinstance(w, Button) and not hasattr(w, "page"):
                w.draw(surf)
        total = len(self.buttons) * self.row_h
        if total > self.list_rect.h:  # more topics than fit: a thin scroll bar beside the list
            r = self.list_rect
            bar_h = max(30, int(r.h * r.h / total))
            y = r.y + int((r.h - bar_h) * self.list_scroll / max(1, total - r.h))
            pygame.draw.rect(surf, (200, 180, 140), (r.right + 4, r.y, 5, r.h), 0, 3)
            pygame.draw.rect(surf, W.PANEL_EDGE, (r.right + 4, y, 5, bar_h), 0, 3)
        if not self.matches:
            W.blit_text(surf, i18n.t("ref.no_match", query=self.query), (self.list_rect.x, self.list_rect.y + 6),
                        "sans", 16, W.BAD, wrap=self.list_w)
        page = self._render_page()
        surf.set_clip(self.page_rect)
        surf.blit(page, (self.page_rect.x, self.page_rect.y - self.page_scroll))
        surf.set_clip(clip)
        if page.get_height() > self.page_rect.h:  # more below (or above): a thin scroll bar
            r = self.page_rect
            frac = r.h / page.get_height()
            bar_h = max(30, int(r.h * frac))
            y = r.y + int((r.h - bar_h) * self.page_scroll / max(1, page.get_height() - r.h))
            pygame.draw.rect(surf, (200, 180, 140), (r.right + 8, r.y, 6, r.h), 0, 3)
            pygame.draw.rect(surf, W.PANEL_EDGE, (r.right + 8, y, 6, bar_h), 0, 3)


def open_page(app, page: Optional[str] = None) -> RulesReferenceScene:
    """Push the reference at ``page`` (or bring the open one to it)."""
    top = app.stack.top
    if isinstance(top, RulesReferenceScene):
        top.show(page or top.page)
        return top
    return app.stack.push(RulesReferenceScene(app, page))


def open_rule(app, rule: str) -> RulesReferenceScene:
    """A refusal's "why?": the page of the rule that refused (its id is never shown)."""
    return open_page(app, rules_pages.page_for_rule(rule))
