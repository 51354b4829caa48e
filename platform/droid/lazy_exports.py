"""A package's public names, each imported from its module on first use (PEP 562).

A package that re-exports everything makes a caller that needs one module pay for all of
them: the device's lint reads ``droid.agent.confirmation`` and would load the model clients'
HTTP stack and date parser with it, at every boot."""

from __future__ import annotations

import importlib
from typing import Any, Callable


def lazy_exports(package: str, exports: dict[str, tuple[str, ...]]) -> tuple[list[str], Callable[[str], Any],
                                                                             Callable[[], list[str]]]:
    """The lazy names, ``__getattr__`` and ``__dir__`` for ``package``, from {module (relative): its names}."""
    module_of = {name: module for module, names in exports.items() for name in names}

    def __getattr__(name: str) -> Any:
        module = module_of.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        setattr(importlib.import_module(package), name, value)  # later reads skip this
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(importlib.import_module(package)), *module_of})

    return sorted(module_of), __getattr__, __dir__
