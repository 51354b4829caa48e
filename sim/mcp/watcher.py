"""CatalogWatcher: the device's observe callbacks as MCP ``tools/list_changed`` announcements.

The device calls back (observe_app_functions) when a package the agent may see is installed,
updated or uninstalled, or one of its functions is enabled or disabled; the watcher drops
the cached tools and announces once per burst. A change that lands while an announcement is
going out is announced again, so a client that re-lists in between misses nothing.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable

from droid.appfunctions.observe import AppFunctionObservation
from sim.mcp.catalog import Catalog

log = logging.getLogger("droidsim.mcp")


class CatalogWatcher:
    def __init__(self, catalog: Catalog, announce: Callable[[], Awaitable[None]]) -> None:
        self._catalog = catalog
        self._announce = announce
        self._dirty = False
        self._task: asyncio.Task | None = None

    def start(self, loop: asyncio.AbstractEventLoop) -> AppFunctionObservation:
        """Observe the device; callbacks run on ``loop``. Cancel the result to stop."""
        return self._catalog.observe(loop.call_soon_threadsafe, self)

    def on_app_function_metadata_changed(self, package_names: set[str]) -> None:
        self._changed()

    def on_app_function_states_changed(self, function_names: set) -> None:
        self._changed()

    def _changed(self) -> None:
        self._catalog.invalidate()
        self._dirty = True
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._announce_while_dirty())

    async def _announce_while_dirty(self) -> None:
        while self._dirty:
            self._dirty = False
            try:
                await self._announce()
            except Exception:  # a failed announcement must not stop the next one
                log.exception("announcing a tools change failed")
