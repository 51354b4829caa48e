"""``python -m sim.cli``: the same as the ``droidsim`` command."""

from sim.cli.main import main

main()
