"""τ²-bench's retail and airline domains on the simulated device (docs/benchmarks.md).

The domains run as apps (benchmarks/tau2/, one function per τ² tool) whose state is the
domain's database in their own storage. This package loads a domain's data, gives each case
a fresh database, runs calls and recorded runs through the device, computes a task's expected
database by replaying its gold actions, and compares databases as τ² does. The names below are
its interface (docs/benchmarks.md, "From Python"); each loads on first use, so the apps, which
import sim.tau2.appkit in their own processes, load nothing else.
"""

from droid.lazy_exports import lazy_exports

__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    "data": ("Domain", "load_domain"),
    "tasks": ("Action", "Call", "DataError", "Task"),
    "state": ("DbDiff", "DbState", "Snapshot", "diff"),
    "device": ("CallOutcome", "DomainApp", "DomainDevice"),
    "gold": ("GoldResult", "replay_gold"),
    "verdict": ("communicated",),
})
