"""Progress while cases run: a bar on a terminal, one line per finished case off it.

On a Ray cluster the nodes are listed when the run starts, each finished case says
which node ran it, and the bar counts the cases of each node, so a node that falls
behind (or drops out) shows while the run goes on.
"""

from __future__ import annotations

from collections import Counter
from typing import Any


def node_label(node: str) -> str:
    """A node's id as Ray prints it in ``ray status``, shortened: enough to tell nodes apart."""
    return node[:8]


class Progress:
    def __init__(self, console: Any) -> None:
        self.console = console
        self._bar = None
        self._task = None
        self._per_node: Counter[str] = Counter()

    def __enter__(self) -> "Progress":
        if self.console.is_terminal:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bar, TextColumn, TimeElapsedColumn

            self._bar = Bar(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                            console=self.console, transient=True)
            self._bar.start()
        return self

    def nodes(self, nodes: list[dict[str, Any]]) -> None:
        """The cluster the cases run on, before the first of them."""
        cpus = sum(n["cpus"] for n in nodes)
        listed = ", ".join(f"{node_label(n['node'])} at {n['address']} ({n['cpus']:g} CPU)" for n in nodes)
        self.console.print(f"ray: {len(nodes)} node{'s' * (len(nodes) != 1)}, {cpus:g} CPUs: {listed}",
                           markup=False, highlight=False, soft_wrap=True)

    def update(self, record: dict[str, Any], done: int, total: int) -> None:
        verdict = "pass" if record["passed"] else "ERROR" if record.get("infra_error") else \
            "NOT JUDGED" if (record.get("outcome") or {}).get("verdict") == "not judged" else "FAIL"
        line = f"{verdict} {record['config']} {record['case_id']} #{record['trial']}"
        if record.get("node"):
            line += f" on {node_label(record['node'])}"
            self._per_node[node_label(record["node"])] += 1
        if self._bar is None:
            self.console.print(f"[{done}/{total}] {line}", markup=False, highlight=False, soft_wrap=True)
        self._say_infra_error(record)
        if self._bar is None:
            return
        if self._task is None:
            self._task = self._bar.add_task("eval", total=total)
        if self._per_node:
            line += "  (" + ", ".join(f"{node} {count}" for node, count in sorted(self._per_node.items())) + ")"
        self._bar.update(self._task, completed=done, description=line)

    def _say_infra_error(self, record: dict[str, Any]) -> None:
        """What kept a case from a verdict, where the run is watched: a case's own setup call that failed
        (a double that raised) is no model server's fault, and the line says which."""
        error = record.get("infra_error") or {}
        if error.get("detail"):
            self.console.print(f"  {record['case_id']}: {error['kind']}: {error['detail']}", markup=False,
                               highlight=False, soft_wrap=True)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()
