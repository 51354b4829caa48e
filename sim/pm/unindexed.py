"""Functions an app declares that this device's SDK does not index, as a lookup names them.

Install records them with the reason (sim/pm/app_parser.py); the package manager lists them per
package, to callers that may see the package. Every "no such function" (the shell, MCP, eval,
the pytest plugin) asks here first, so that a function declared for another SDK is said to be
that, and why, rather than unknown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable


@dataclass(frozen=True)
class Unindexed:
    package_name: str
    function_id: str
    reason: str

    def __str__(self) -> str:
        return f"{self.package_name} declares {self.function_id}, but this device does not index it: {self.reason}"


def unindexed_functions(context: Any) -> list[Unindexed]:
    """Every declared, unindexed function of the packages ``context``'s caller may see."""
    packages = context.get_system_service("package").list_packages()
    return [Unindexed(p.package_name, u.function_id, u.reason) for p in packages for u in p.unindexed_functions]


def named(unindexed: Iterable[Unindexed], name: str, package: str | None = None) -> list[Unindexed]:
    """Those ``name`` (a full id, or the name after ``#``) means, of ``package`` if given."""
    return [u for u in unindexed if (package is None or u.package_name == package)
            and name in (u.function_id, u.function_id.rsplit("#", 1)[-1])]


def not_indexed_words(unindexed: Iterable[Unindexed], name: str, package: str | None = None) -> str | None:
    """What to say of ``name`` when it is declared but not indexed here; None when it is not."""
    found = named(unindexed, name, package)
    return "; ".join(str(u) for u in found) if found else None
