"""What the shell says when a package or function id is unknown: which one, and what was meant.

``--function`` takes the exact id, as AOSP's ``cmd app_function`` does; a short name or a
typo gets the exact id(s) it could mean, and an unknown package the installed packages
closest to it.
"""

from __future__ import annotations

import difflib

from droid.appfunctions.metadata import AppFunctionMetadata
from sim.pm.unindexed import Unindexed, not_indexed_words


def unknown_function_hint(functions: list[AppFunctionMetadata], package_name: str, function_id: str,
                          unindexed: list[Unindexed] = ()) -> str:
    """``functions``: every function on the device (the shell's search); ``unindexed``: those the
    packages declare but this device's SDK does not index (sim/pm/unindexed.py)."""
    declared = not_indexed_words(unindexed, function_id, package_name)
    if declared is not None:
        return f"{declared}."
    ids: dict[str, list[str]] = {}
    for function in functions:
        ids.setdefault(function.package_name, []).append(function.id)
    if package_name not in ids:
        close = difflib.get_close_matches(package_name, list(ids), n=3)
        suggestion = f"; did you mean {_either(close)}?" if close else "."
        return f"No package {package_name} with app functions is installed{suggestion}"
    functions = ids[package_name]
    short = [f for f in functions if f.rsplit("#", 1)[-1] == function_id]
    if short:
        return f"--function takes the exact id: {function_id!r} is {_either(short)}."
    names = difflib.get_close_matches(function_id.rsplit("#", 1)[-1], [f.rsplit("#", 1)[-1] for f in functions], n=3)
    close = [f for f in functions if f.rsplit("#", 1)[-1] in names]
    listed = f"did you mean {_either(close)}?" if close else f"its functions are: {', '.join(functions) or 'none'}."
    return f"{package_name} has no function {function_id}; {listed}"


def _either(options: list[str]) -> str:
    return options[0] if len(options) == 1 else ", ".join(options[:-1]) + " or " + options[-1]
