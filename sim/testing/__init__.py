"""sim.testing: test apps and agents with pytest, on a device inside the test process.

``pip install droidsim`` registers the plugin (sim.testing.plugin): the ``droid_device``
fixture is a fresh TestDevice per test. See docs/testing.md.
"""

from sim.testing.agent import AgentRun, model_call
from sim.testing.device import Caller, InstalledApp, TestDevice
from sim.testing.functions import FunctionLookupError, FunctionRef

__all__ = [
    "AgentRun",
    "Caller",
    "FunctionLookupError",
    "FunctionRef",
    "InstalledApp",
    "TestDevice",
    "model_call",
]
