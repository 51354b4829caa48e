"""Progress while cases run: a bar on a terminal, one line per finished case off it."""

from __future__ import annotations

from typing import Any


class Progress:
    def __init__(self, console: Any) -> None:
        self.console = console
        self._bar = None
        self._task = None

    def __enter__(self) -> "Progress":
        if self.console.is_terminal:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bar, TextColumn, TimeElapsedColumn

            self._bar = Bar(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                            console=self.console, transient=True)
            self._bar.start()
        return self

    def update(self, record: dict[str, Any], done: int, total: int) -> None:
        verdict = "pass" if record["passed"] else "FAIL"
        line = f"{verdict} {record['config']} {record['case_id']} #{record['trial']}"
        if self._bar is None:
            self.console.print(f"[{done}/{total}] {line}", markup=False, highlight=False, soft_wrap=True)
            return
        if self._task is None:
            self._task = self._bar.add_task("eval", total=total)
        self._bar.update(self._task, completed=done, description=line)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()
