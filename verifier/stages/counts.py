"""counts: a whole number that counts the records of one list sharing a field's value,
named by the word after it: "2 downgrades" where two of the listed rating actions have
``"action": "downgrade"``, "3 beats" over three ``"result": "beat"``. The word (or its
singular) must be that value, and only one list of the data may hold it, so a bare count
of anything, or another entity's list, is not taken for one."""

from __future__ import annotations

import re
from collections import defaultdict

from verifier.deadline import check as check_deadline

from ..checks.match import leaf_evidence
from ..index.haystack import Haystack, LeafId
from ..state import State

REQUIRES = frozenset({"answer", "matched", "haystack", "policy"})
ASSIGNS = frozenset({"matched"})

#: The word right after the number: what it counts.
_NEXT_WORD = re.compile(r"[ \u00a0]+([^\W\d_][\w-]*)")
#: Longest field value read as a category ("downgrade", "outlook change"), not prose.
_MAX_VALUE = 40


def run(state: State) -> None:
    wanted: dict[int, str] = {}
    for i, (mention, item) in enumerate(state.matched):
        if item.status == "unsupported" and mention.kind == "number" and mention.integer is not None \
                and 0 < mention.integer <= 10_000:
            after = _NEXT_WORD.match(state.answer, mention.end)
            if after:
                wanted[i] = after.group(1).lower()
    if not wanted:
        return
    groups = _groups(state.haystack)
    for i, word in wanted.items():
        mention, item = state.matched[i]
        for form in dict.fromkeys((word, word.removesuffix("s"), word.removesuffix("es"))):
            lists = groups.get(form, [])
            leaves = lists[0] if len(lists) == 1 and len(lists[0]) == mention.integer else None
            if leaves:  # one list holds the value: two (AAPL's actions, MSFT's) may be anyone's
                evidence = [leaf_evidence(state.haystack, leaf, "counted")
                            for leaf in leaves[:state.policy.max_evidence]]
                state.matched[i] = (mention, item.model_copy(update={
                    "status": "derived", "flagged": False, "evidence": evidence, "evidence_total": len(leaves),
                    "reason": f"counts the {len(leaves)} records of {_list_path(evidence[0].path)} "
                              f"whose {evidence[0].path.rsplit('.', 1)[-1]} is {evidence[0].raw!r}"}))
                break


def _groups(hay: Haystack) -> dict[str, list[list[LeafId]]]:
    """Field value (lower case, "_" as a space) -> the leaves of each list that hold it
    under one key, one list of leaves per (list, key)."""
    by: dict[tuple[str, int, str | None], list[LeafId]] = defaultdict(list)
    for leaf, entry in enumerate(hay.leaves):
        check_deadline()
        if len(entry.raw) > _MAX_VALUE or not hay.is_string(leaf):
            continue
        record = hay.parent(entry.node)
        if record < 0 or not isinstance(hay.segment(record), int):
            continue  # a record of a list: its position is its segment
        by[(entry.raw.lower().replace("_", " "), hay.parent(record), entry.key)].append(leaf)
    out: dict[str, list[list[LeafId]]] = defaultdict(list)
    for (value, _, _), leaves in by.items():
        out[value].append(leaves)
    return out


def _list_path(path: str) -> str:
    """``$.actions[0].action`` -> ``$.actions``."""
    return re.sub(r"\[\d+\]\.[^.\[]+$", "", path)
