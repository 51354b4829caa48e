"""The bench's result: rows of figure, same-run baseline, ratio, target and verdict.

One ``Report`` is both the printed table and ``bench/results.json``, so the two
never disagree. Times are kept in nanoseconds and formatted only for display.
"""

from __future__ import annotations

import json
import os
import platform
import sys
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal

Unit = Literal["ns", "calls/s"]
TargetKind = Literal["ratio_at_most", "ratio_at_least", "value_at_most"]

PASS, MISS, INFO = "pass", "miss", "info"

# The figures table, in the printed and the Markdown form: (heading, alignment).
COLUMNS = (("figure", "left"), ("value", "right"), ("baseline", "left"), ("baseline value", "right"),
           ("ratio", "right"), ("target", "right"), ("result", "left"))


@dataclass(frozen=True)
class Target:
    """A goal from the issue: a ratio against the baseline, or an absolute budget. A guard is
    no goal: a limit about 20 % past the worst quiet run of a figure whose goal was given up
    (docs/performance.md says why), so that it cannot get worse unnoticed."""

    kind: TargetKind
    limit: float
    guard: bool = False

    def met(self, value: float, ratio: float | None) -> bool:
        if self.kind == "value_at_most":
            return value <= self.limit
        if ratio is None:
            raise ValueError(f"a {self.kind} target needs a baseline")
        return ratio <= self.limit if self.kind == "ratio_at_most" else ratio >= self.limit

    def describe(self, unit: Unit) -> str:
        if self.kind == "value_at_most":
            text = f"≤ {format_value(self.limit, unit)}"
        else:
            text = f"{'≤' if self.kind == 'ratio_at_most' else '≥'} {self.limit:g}×"
        return f"{text} (guard)" if self.guard else text

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "limit": self.limit, "guard": self.guard}


@dataclass(frozen=True)
class Baseline:
    """A bare-transport figure measured in this run, that rows are divided by."""

    name: str
    value: float
    unit: Unit

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "value": self.value, "unit": self.unit}


@dataclass(frozen=True)
class Row:
    figure: str
    value: float
    unit: Unit
    baseline: Baseline | None = None
    target: Target | None = None
    detail: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.baseline is not None and self.baseline.unit != self.unit:
            raise ValueError(f"{self.figure}: {self.unit} cannot be divided by a baseline in {self.baseline.unit}")
        if self.target is not None and self.target.kind != "value_at_most" and self.baseline is None:
            raise ValueError(f"{self.figure}: a ratio target needs a baseline")

    @property
    def ratio(self) -> float | None:
        if self.baseline is None or self.baseline.value == 0:
            return None
        return self.value / self.baseline.value

    @property
    def status(self) -> str:
        if self.target is None:
            return INFO
        return PASS if self.target.met(self.value, self.ratio) else MISS

    def to_json(self) -> dict[str, Any]:
        return {
            "figure": self.figure,
            "value": self.value,
            "unit": self.unit,
            "baseline": self.baseline.to_json() if self.baseline else None,
            "ratio": self.ratio,
            "target": self.target.to_json() if self.target else None,
            "status": self.status,
            "detail": self.detail,
        }


def format_value(value: float, unit: Unit) -> str:
    """``512 ns``, ``48.2 µs``, ``1.31 ms``, ``2.40 s``, ``12,345/s``, ``4.8/s``."""
    if unit == "calls/s":
        return f"{value:,.0f}/s" if value >= 100 else f"{value:.1f}/s"
    if value < 1e3:
        return f"{value:.0f} ns"
    if value < 1e6:
        return f"{value / 1e3:.1f} µs"
    if value < 1e9:
        return f"{value / 1e6:.2f} ms"
    return f"{value / 1e9:.2f} s"


def format_ratio(ratio: float | None) -> str:
    return "—" if ratio is None else f"{ratio:.2f}×"


@dataclass
class Report:
    baselines: list[Baseline] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def baseline(self, name: str, value: float, unit: Unit) -> Baseline:
        """Record a baseline (once per name) and return it for rows to use."""
        if any(b.name == name for b in self.baselines):
            raise ValueError(f"baseline {name!r} recorded twice")
        entry = Baseline(name, value, unit)
        self.baselines.append(entry)
        return entry

    def add(self, row: Row) -> Row:
        self.rows.append(row)
        return row

    @property
    def missed(self) -> list[Row]:
        return [row for row in self.rows if row.status == MISS]

    def to_json(self) -> dict[str, Any]:
        return {
            "generated_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "machine": machine(),
            "baselines": [b.to_json() for b in self.baselines],
            "rows": [r.to_json() for r in self.rows],
            "notes": self.notes,
        }

    def write_json(self, path: Path) -> None:
        """Atomically: a reader never sees half a file."""
        tmp = path.with_name(f"{path.name}.tmp")
        tmp.write_text(json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n")
        os.replace(tmp, path)

    def table_rows(self) -> list[tuple[str, ...]]:
        """The printed table's cells: figure, value, baseline, baseline value, ratio, target, result."""
        return [
            (
                row.figure,
                format_value(row.value, row.unit),
                row.baseline.name if row.baseline else "—",
                format_value(row.baseline.value, row.baseline.unit) if row.baseline else "—",
                format_ratio(row.ratio),
                row.target.describe(row.unit) if row.target else "—",
                row.status,
            )
            for row in self.rows
        ]

    def markdown(self) -> str:
        """The figures as a Markdown table, for docs/performance.md."""
        lines = ["| " + " | ".join(name for name, _ in COLUMNS) + " |",
                 "|" + "".join("---:|" if align == "right" else "---|" for _, align in COLUMNS)]
        lines += ["| " + " | ".join(cells) + " |" for cells in self.table_rows()]
        return "\n".join(lines) + "\n"

    def render(self, console: Any) -> None:
        """The baselines, then the figures, as rich tables on ``console``."""
        from rich.table import Table

        baselines = Table(title="Baselines (measured in this run)", title_justify="left")
        baselines.add_column("baseline")
        baselines.add_column("value", justify="right")
        for b in self.baselines:
            baselines.add_row(b.name, format_value(b.value, b.unit))
        console.print(baselines)

        table = Table(title="droidsim bench", title_justify="left")
        for column, justify in COLUMNS:
            table.add_column(column, justify=justify)
        styles = {PASS: "green", MISS: "bold red", INFO: "dim"}
        for row, cells in zip(self.rows, self.table_rows()):
            table.add_row(*cells[:-1], f"[{styles[row.status]}]{cells[-1]}[/]")
        console.print(table)
        for note in self.notes:
            console.print(f"note: {note}", highlight=False)


def machine() -> dict[str, Any]:
    """What the figures were measured on; the load average tells a busy machine from a slow device."""
    return {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None,
    }
