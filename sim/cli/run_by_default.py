"""A click group whose first word, when it names no subcommand, goes to its ``run`` subcommand.

``droidsim eval SUITE`` is ``eval run SUITE`` and ``droidsim eval tau2 --domain ...`` is
``eval tau2 run --domain ...``, while ``eval compare ...`` and ``eval tau2 replay ...`` reach
their subcommands, and ``--help`` the group's own help.
"""

from __future__ import annotations

import click


class RunUnlessSubcommand(click.Group):
    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or (args[0] not in self.commands and args[0] not in ("--help", "-h")):
            args = ["run", *args]
        return super().parse_args(ctx, args)
