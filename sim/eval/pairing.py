"""Pairing the calls a turn expects with the calls the agent made: an exact min-cost matching.

A greedy pairing depends on the order of the calls: with mixed matchers (one
call ``{any: true}``, the other a fixed value), pairing the loose one first can
take the call the strict one needed, so the same two calls pass in one order
and fail in the other. The pairing with the least total cost has no order.

The sizes are those of one turn (a handful of calls; the suite loader caps a
turn at ``MAX_EXPECTED`` expected calls), so an exact dynamic programme over
the subsets of expected calls is a few dozen steps. It spares the project
scipy and numpy for one ``linear_sum_assignment`` on a 3x3 matrix.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

MAX_EXPECTED = 12
UNPAIRABLE = float("inf")


def min_cost_pairing(costs: Sequence[Sequence[float]], missing: float, extra: Sequence[float]) -> list[int | None]:
    """For each expected call (a row), the made call (a column) it pairs with, or None.

    ``costs[e][c]`` is the cost of pairing expected ``e`` with made ``c`` (``UNPAIRABLE``: never);
    leaving an expected call unpaired costs ``missing``, leaving made call ``c`` unpaired
    ``extra[c]``. Ties go to the earliest made call, so the result is deterministic."""
    rows = len(costs)
    if rows > MAX_EXPECTED:
        raise ValueError(f"a turn expects at most {MAX_EXPECTED} calls, not {rows}")
    columns = len(extra)

    @lru_cache(maxsize=None)
    def best(column: int, used: int) -> tuple[float, tuple[int | None, ...]]:
        """The cheapest pairing of made calls ``column``... with the expected calls not in ``used``."""
        if column == columns:
            left = rows - bin(used).count("1")
            return left * missing, (None,) * rows
        cost, plan = best(column + 1, used)
        choice = (cost + extra[column], plan)
        for row in range(rows):
            pair_cost = costs[row][column]
            if used & (1 << row) or pair_cost == UNPAIRABLE:
                continue
            rest, plan = best(column + 1, used | (1 << row))
            if rest + pair_cost < choice[0]:
                choice = (rest + pair_cost, plan[:row] + (column,) + plan[row + 1:])
        return choice

    return list(best(0, 0)[1])
