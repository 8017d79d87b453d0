"""Why each seat sits where it does in the turn order (R4), in words: the reveal says it, and the
rules reference's pictures of the reveal."""
from __future__ import annotations

from ..words import i18n


def order_reasons(state) -> dict[int, str]:
    """Why each seat sits where it does in the turn order (R4), in words."""
    out = {}
    for i in state.order:
        p = state.seats[i].plan
        parts = [i18n.t("reveal.why_K") if p.king else i18n.t(f"reveal.why_{p.action}")]
        if p.king and sum(state.seats[j].plan.king for j in state.order) > 1:
            parts.append(i18n.t("reveal.why_K_then", action=i18n.t(f"card.{p.action}")))
        same = [j for j in state.order if j != i and state.seats[j].plan.king == p.king
                and state.seats[j].plan.action == p.action]
        if same:
            parts.append(i18n.t("reveal.why_card", card=state.seats[i].card))
        out[i] = "; ".join(parts)
    return out
