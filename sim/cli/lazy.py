"""A click group whose subcommands are imported when named, not at every start.

`droidsim shell ...` runs in scripts and tests hundreds of times; importing every command's
modules (lint's rules, the conformance suite, the device, the eval) for each run cost more than
the command itself (click's documented lazy-loading pattern)."""

from __future__ import annotations

import importlib

import click


class LazyGroup(click.Group):
    def __init__(self, *args, lazy_subcommands: dict[str, str] | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.lazy_subcommands = lazy_subcommands or {}  # name -> "module:attribute"

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.lazy_subcommands])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy_subcommands:
            module, attribute = self.lazy_subcommands[cmd_name].split(":")
            return getattr(importlib.import_module(module), attribute)
        return super().get_command(ctx, cmd_name)
