"""``droidsim eval tau2``: τ²-bench's retail and airline domains on the device.

``eval tau2 --domain D --data DIR ...`` runs an agent (``eval tau2 run``); a first word that
names a subcommand goes to it.
"""

from __future__ import annotations

from sim.cli.eval_tau2_run import tau2_run_command
from sim.cli.run_by_default import RunUnlessSubcommand

tau2_group = RunUnlessSubcommand("tau2", help="τ²-bench's retail and airline tasks on the device: run an agent "
                                 "(`eval tau2 --domain D --data DIR ...`, the same as `eval tau2 run ...`).",
                                 commands={"run": tau2_run_command})
