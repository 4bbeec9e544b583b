"""View keys of the optional round mechanisms: named bids and a shown trump card.

Pipeline place: engine → **views** → api, beside `views.py`: each function adds a view
hook and a restore hook to a `Ruleset` that uses the mechanism, so other games' views
stay as they were.
"""
from __future__ import annotations

from ..engine.moves import normalize
from .views import ViewError


def named_bid_hooks(rules, words: tuple[str, ...]) -> None:
    """`bid 1..13 or nil`: the view key `bid_names` (the named bid of each seat, or null)."""
    def view(st, seat, out) -> None:
        names = st.extra.get("bid_names") or (None,) * st.n
        out["bid_names"] = [name if st.bids[p] is not None else None for p, name in enumerate(names)]

    def restore(st, data) -> None:
        given = data.get("bid_names")
        if given is None:
            st.extra["bid_names"] = (None,) * st.n
            return
        if not isinstance(given, list) or len(given) != st.n or \
                any(g is not None and (not isinstance(g, str) or normalize(g) not in words) for g in given):
            raise ViewError(f"`bid_names` must give each seat one of {', '.join(words)}, or null")
        st.extra["bid_names"] = tuple(None if g is None else normalize(g) for g in given)

    rules.view_hooks.append(view)
    rules.restore_hooks.append(restore)



def shown_hooks(rules) -> None:
    """View key `trump_card`: the shown card while its holder has it (else null); restored."""
    def view(st, seat, out) -> None:
        shown, dealer = st.extra.get("shown"), st.dealer
        held = shown is not None and dealer is not None and st.hands[dealer] >> shown & 1
        out["trump_card"] = rules.deck.texts[shown] if held else None

    def restore(st, data) -> None:
        text = data.get("trump_card")
        st.extra["shown"] = None
        if text is None:
            return
        ids = rules.deck.ids_by_text().get(normalize(str(text)), [])
        held = [card for card in ids if st.dealer is not None and st.hands[st.dealer] >> card & 1]
        if not held:
            raise ViewError(f"the trump card {text!r} is not in the dealer's hand")
        st.extra["shown"] = held[0]

    rules.view_hooks.append(view)
    rules.restore_hooks.append(restore)
