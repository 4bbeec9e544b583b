"""Adapters to the libraries learning code already uses: `rulekit.envs.pettingzoo` (an AEC
environment) and `rulekit.envs.openspiel` (a pyspiel game). Both play any rule file through
the numbered actions and arrays of `rulekit.engine.actions` and `rulekit.engine.observe`.

Pipeline place: api → **envs**. Each adapter needs its extra: `pip install
"rulekit-cards[pettingzoo]"` or `"rulekit-cards[openspiel]"`.
"""
