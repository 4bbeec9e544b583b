"""Checker cases beyond the broken-file folder: each gives a precise message."""
from __future__ import annotations

import pytest

import rulekit
from rulekit.api import _bundled_dir

INSTINCT = (_bundled_dir() / "instinct.rules").read_text()


def problems(text):
    with pytest.raises(rulekit.RuleError) as caught:
        rulekit.loads(text)
    return [d.message for d in caught.value.diagnostics]


def test_bidding_cannot_start_with_the_highest_bidder():
    text = INSTINCT.replace("bid 0..11, in turn from dealer", "bid 0..11, in turn from highest bidder")
    assert any("nobody has bid yet" in m for m in problems(text))


def test_card_bids_are_not_in_turn():
    text = INSTINCT.replace("bid 0..11, in turn from dealer", "bid with a card, value rank, in turn from dealer")
    assert any("simultaneous and hidden" in m for m in problems(text))


def test_a_lead_is_guard_lets_a_case_pick_that_kind_of_card():
    """`lead is red -> highest red` always finds a card: the lead itself is red."""
    text = INSTINCT.replace("any trump played -> last trump", "any trump played -> last trump\n  lead is red -> highest red")
    assert rulekit.loads(text).title == "Instinct"


def test_deal_hint_does_not_offer_too_few_players():
    text = INSTINCT.replace("deal 11 each", "deal 40 each")
    with pytest.raises(rulekit.RuleError) as caught:
        rulekit.loads(text)
    hint = caught.value.diagnostics[0].hint
    assert hint == "deal at most 11 each"
