"""sim.testing: test apps and agents with pytest, on a device inside the test process.

Installing droidsim (from a checkout, or a wheel built from one) registers the plugin
(sim.testing.plugin): the ``droid_device`` fixture is a fresh TestDevice per test. See
docs/testing.md.

Names are exported lazily (PEP 562): pytest imports the plugin in every run of every project
where droidsim is installed, and that must not cost the device's imports.
"""

from importlib import import_module
from pathlib import Path

# The stock agent app droidsim ships (com.example.assistant, the make sim device's preinstalled
# agent), in a checkout and in an installed package alike: install it with system=True and
# pregrant_agent it to run_agent as it (docs/testing.md, "Testing an agent").
STOCK_ASSISTANT = Path(__file__).resolve().parents[1] / "eval" / "system_apps" / "assistant"

_EXPORTS = {
    "AgentRun": "sim.testing.agent",
    "Confirmation": "sim.testing.agent",
    "model_call": "sim.testing.agent",
    "Caller": "sim.testing.device",
    "GeneratedAnswerWarning": "sim.testing.device",
    "InstalledApp": "sim.testing.device",
    "TestDevice": "sim.testing.device",
    "FunctionLookupError": "sim.testing.functions",
    "FunctionRef": "sim.testing.functions",
    "NoAnswerError": "sim.testing.functions",
}

__all__ = sorted([*_EXPORTS, "STOCK_ASSISTANT"])


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
