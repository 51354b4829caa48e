"""A domain's data folder, read: its layout told apart, its database as the benchmark reads it,
its tasks, splits and policy.

Two layouts, told apart by their files:

- τ² (``data/tau2/domains/<domain>/`` in τ²-bench): ``db.json``, ``tasks.json``,
  ``split_tasks.json``, ``policy.md``. The database is read as τ²'s models read it
  (sim/tau2/schema.py) and the apps behave as τ²'s tools.
- τ-bench v1's airline (``tau_bench/envs/airline/data/``): ``flights.json``,
  ``reservations.json``, ``users.json``. Read as raw JSON, as v1 does, and the airline app
  behaves as v1's tools where they differ (docs/benchmarks.md). v1's tasks are Python code,
  not data: its recorded runs carry their own.

Nothing is copied: the files are read where the user keeps them.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from sim.tau2.appkit import TAU2, TAU_BENCH_V1
from sim.tau2.schema import COLLECTIONS, DATABASES
from sim.tau2.state import Snapshot
from sim.tau2.storage import stored_texts
from sim.tau2.tasks import DataError, Task, parse_tasks, validation_message

DOMAINS = ("retail", "airline")
TAU2_FILES = ("db.json", "tasks.json", "split_tasks.json", "policy.md")
V1_FILES = {"airline": ("flights.json", "reservations.json", "users.json"),
            "retail": ("products.json", "users.json", "orders.json")}
# The apps, linked into the package (sim/tau2/apps -> benchmarks/tau2) so that a wheel carries them.
APPS = Path(__file__).with_name("apps").resolve()
PACKAGES = {"retail": "dev.droidsim.tau2.retail", "airline": "dev.droidsim.tau2.airline"}
SERVICES = {"retail": "RetailFunctionService", "airline": "AirlineFunctionService"}


@dataclass(eq=False)
class Domain:
    """A domain's data as loaded. ``snapshot`` is its database; ``tasks()``/``policy`` are τ²'s."""

    name: str
    data_dir: Path
    layout: str  # TAU2 or TAU_BENCH_V1: which benchmark the data and the app's behaviour are
    snapshot: Snapshot
    _tasks: list[Task] | None = None
    _splits: dict[str, list[str]] | None = None
    _policy: str | None = None

    @property
    def app_dir(self) -> Path:
        return APPS / self.name

    @property
    def package(self) -> str:
        return PACKAGES[self.name]

    @property
    def policy(self) -> str:
        """The agent's policy (policy.md), which τ² gives the agent as its instructions."""
        return self._tau2_only(self._policy, "policy.md")

    @property
    def splits(self) -> dict[str, list[str]]:
        return self._tau2_only(self._splits, "split_tasks.json")

    def tasks(self, split: str | None = None) -> list[Task]:
        """The tasks, all or those of a split (``train``, ``test``, ``base``), in the file's order."""
        tasks = self._tau2_only(self._tasks, "tasks.json")
        if split is None:
            return list(tasks)
        if split not in self.splits:
            raise DataError(f"{self.data_dir / 'split_tasks.json'}: no split {split!r} "
                            f"(it has: {', '.join(self.splits)})")
        wanted = set(self.splits[split])
        return [task for task in tasks if task.id in wanted]

    def task(self, task_id: str) -> Task:
        for task in self._tau2_only(self._tasks, "tasks.json"):
            if task.id == task_id:
                return task
        raise DataError(f"{self.data_dir / 'tasks.json'}: no task {task_id!r}")

    def _tau2_only(self, value: Any, file: str) -> Any:
        if value is None:
            raise DataError(f"{self.data_dir} is τ-bench v1's layout, which has no {file} (v1 keeps its tasks "
                            f"and policy in Python code): give τ²'s {self.name} folder, or replay a τ-bench "
                            f"historical-trajectories file, whose runs carry their tasks")
        return value


def load_domain(name: str, data_dir: Path | str) -> Domain:
    """The domain ``name`` (retail, airline) from ``data_dir``; a ``DataError`` names what is wrong."""
    if name not in DOMAINS:
        raise DataError(f"unknown domain {name!r}: droidsim has τ²'s {' and '.join(DOMAINS)}")
    folder = Path(data_dir).resolve()
    if not folder.is_dir():
        raise DataError(f"{data_dir}: no such folder (give the folder holding the {name} domain's data)")
    return _load(name, folder, _fingerprint(folder))


def _fingerprint(folder: Path) -> tuple:
    """What the cache is keyed by: each file's size and time, so an edited file is read again."""
    return tuple((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in sorted(folder.iterdir()) if p.is_file())


@functools.lru_cache(maxsize=4)
def _load(name: str, folder: Path, _fingerprint: tuple) -> Domain:
    if (folder / "db.json").exists():
        return _load_tau2(name, folder)
    present = {domain: [f for f in files if (folder / f).exists()] for domain, files in V1_FILES.items()}
    other = next((d for d in DOMAINS if d != name and len(present[d]) == len(V1_FILES[d])), None)
    if other is not None:
        raise DataError(f"{folder} holds τ-bench v1's {other} data, not {name}'s")
    if not present[name]:
        raise DataError(f"{folder} holds no {name} data: τ²'s layout has {', '.join(TAU2_FILES)}; τ-bench v1's "
                        f"{name} layout has {', '.join(V1_FILES[name])}")
    if name == "retail":
        raise DataError(f"{folder} is τ-bench v1's retail layout, which droidsim does not port (v1's retail tools "
                        f"differ from τ²'s): give τ²'s retail folder, with db.json")
    missing = [f for f in V1_FILES[name] if f not in present[name]]
    if missing:
        raise DataError(f"{folder} is τ-bench v1's {name} layout but lacks {', '.join(missing)}")
    tables = {collection: _read_json(folder / f"{collection}.json") for collection in COLLECTIONS[name]}
    for collection, records in tables.items():
        if not isinstance(records, dict):
            raise DataError(f"{folder / (collection + '.json')}: expected an object of records by key")
    texts = {collection: stored_texts(records) for collection, records in tables.items()}
    return Domain(name, folder, TAU_BENCH_V1, Snapshot(name, TAU_BENCH_V1, texts))


def _load_tau2(name: str, folder: Path) -> Domain:
    missing = [f for f in TAU2_FILES if not (folder / f).exists()]
    if missing:
        raise DataError(f"{folder} is τ²'s layout (it has db.json) but lacks {', '.join(missing)}")
    raw = _read_json(folder / "db.json")
    other = next((d for d in DOMAINS if d != name and isinstance(raw, dict) and set(raw) == set(COLLECTIONS[d])), None)
    if other is not None:
        raise DataError(f"{folder / 'db.json'} is τ²'s {other} database, not {name}'s")
    try:
        database = DATABASES[name].model_validate(raw).model_dump()
    except ValidationError as error:
        raise DataError(f"{folder / 'db.json'}: not τ²'s {name} database: {validation_message(error)}") from None
    texts = {collection: stored_texts(database[collection]) for collection in COLLECTIONS[name]}
    tasks = parse_tasks(_read_json(folder / "tasks.json"), str(folder / "tasks.json"))
    splits = _splits(_read_json(folder / "split_tasks.json"), folder / "split_tasks.json", {t.id for t in tasks})
    policy = (folder / "policy.md").read_text(encoding="utf-8")
    return Domain(name, folder, TAU2, Snapshot(name, TAU2, texts), tasks, splits, policy)


def _splits(raw: Any, where: Path, task_ids: set[str]) -> dict[str, list[str]]:
    if not isinstance(raw, dict) or not all(isinstance(v, list) for v in raw.values()):
        raise DataError(f"{where}: expected an object of split name -> list of task ids")
    for split, ids in raw.items():
        unknown = [i for i in ids if i not in task_ids]
        if unknown:
            raise DataError(f"{where}: split {split!r} names task {unknown[0]!r}, which tasks.json does not have")
    return raw


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise DataError(f"{path}: not JSON: {error}") from None
    except OSError as error:
        raise DataError(f"{path}: cannot read it: {error.strerror}") from None
