"""Arithmetic a reply states on a question no app serves, checked as arithmetic.

"What's a 15% tip on $80?" needs no app: the agent answers from what it knows, and no call can
say it is wrong. Its numbers can still be checked: an amount the reply gives in the question's
units (a currency, a length, a temperature) must follow from the question's amounts, and from
the amounts the reply gave before it, by one step of arithmetic — a percentage of an amount, an
amount with a percentage added or taken off, a sum or a difference of two, a product or a share
by a plain number of the question ("split between 4"), a part of the question's percentage the
reply splits it into ("10 % is $8.00, 5 % is $4.00"), or the same amount in another unit of its kind
(pint's conversions, as sim/eval/restated.py reads them). "$15" for 15 % of $80 follows from
none; "$12, so $92 in total" follows step by step. An amount of a kind the question holds none of
("the tower is 330 m tall") is a fact of the world, not arithmetic: a judge's to check, not ours.
"""

from __future__ import annotations

import re

from sim.eval.restated import SaidQuantity, agrees, quantities_said, units

_PERCENT = re.compile(r"(?<![\d.,])(\d+(?:[.,]\d+)?)\s*(?:%|percent\b|per\s+cent\b|pour\s*cent\b|เปอร์เซ็นต์)", re.I)
_PLAIN = re.compile(r"(?<![\d.,$€£¥฿])\b(\d+(?:[.,]\d+)?)\b(?!\s*(?:%|[.,]\d))")


def miscalculated(reply: str, question: str) -> list[str]:
    """The amounts of the reply that no step of arithmetic gives from the question's, each with why."""
    asked = [q for _, q in quantities_said(question)]
    if not asked:
        return []
    percents = [_number(p) for p in _PERCENT.findall(question)]
    parts = _parts(sorted({_number(p) for p in _PERCENT.findall(reply)}), percents)
    spans = [m.span() for m, _ in quantities_said(question)] + [m.span() for m in _PERCENT.finditer(question)]
    plain = [_number(m.group(1)) for m in _PLAIN.finditer(question)
             if not any(s <= m.start() < e for s, e in spans)]
    known, found = list(asked), []
    for _, said in quantities_said(reply):
        same_kind = [q for q in known if _dimension(q) == _dimension(said)]
        if not same_kind:
            continue  # a fact of the world, not a step from the question's amounts
        if _follows(said, same_kind, percents, plain, parts):
            known.append(said)
        else:
            shown = ", ".join(q.text for q in asked)
            found.append(f"{said.text!r}, which no arithmetic on the question's {shown} gives")
    return found


def _follows(said: SaidQuantity, amounts: list[SaidQuantity], percents: list[float], plain: list[float],
             parts: list[float] = ()) -> bool:
    """One step of arithmetic from amounts of its kind (in its unit, or converted from another); a
    part of a percentage is taken of an amount, never added to it nor taken off."""
    if any(_converts(said, amount) for amount in amounts):
        return True
    values = [amount.value for amount in amounts if amount.unit == said.unit]
    steps = set(values)
    steps |= {v * p / 100 for v in values for p in [*percents, *parts]} | {v * (1 + s * p / 100) for v in values
                                                                for p in percents for s in (1, -1)}
    steps |= {a + b for a in values for b in values} | {abs(a - b) for a in values for b in values}
    steps |= {v * n for v in values for n in plain} | {v / n for v in values for n in plain if n}
    return any(_rounds_to(said.value, step) for step in steps)


def _parts(stated: list[float], asked: list[float]) -> list[float]:
    """The reply's percentages that split one the question asks into parts ("15 %: 10 % is $8.00, 5 % is
    $4.00"): steps of the asked percentage worked out, not a percentage of the reply's own."""
    return [p for p in stated if p not in asked and
            any(abs(p + other - whole) < 1e-9 for other in stated if other != p for whole in asked)]


def _converts(said: SaidQuantity, amount: SaidQuantity) -> bool:
    """The same amount in another unit of its kind: "22 °C (about 72 °F)", "10 km, about 6.2 miles"."""
    return said.unit != amount.unit and bool(said.unit) and bool(amount.unit) and \
        agrees(said, amount.value, amount.unit) is True


def _rounds_to(said: float, value: float) -> bool:
    """Said as the value, rounded to the places said (to the cent, to the unit)."""
    places = len(f"{said:g}".partition(".")[2])
    return abs(said - value) <= 0.5 * 10 ** -places + 1e-9


def _dimension(quantity: SaidQuantity) -> str:
    return str(units().Unit(quantity.unit or "degC").dimensionality)


def _number(text: str) -> float:
    return float(text.replace(",", "."))
