"""Context: a package's handle on the device and its system services."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from droid.appfunctions.manager import AppFunctionManager


class ServiceManager(Protocol):
    def get_service(self, name: str) -> Any: ...

    def sdk_int(self) -> int: ...


class Context:
    APP_FUNCTION_SERVICE = "app_function"
    PACKAGE_SERVICE = "package"

    # System services that get a client-side wrapper, as Context.getSystemService does.
    _MANAGERS = {APP_FUNCTION_SERVICE: AppFunctionManager}

    def __init__(self, package_name: str, service_manager: ServiceManager, data_dir: Path | None = None) -> None:
        self._package_name = package_name
        self._service_manager = service_manager
        self._managers: dict[str, Any] = {}
        # The app's private folder (getDataDir); emptied by `pm clear`.
        self.data_dir = data_dir

    @property
    def package_name(self) -> str:
        return self._package_name

    def get_system_service(self, name: str) -> Any:
        if name not in self._managers:
            binder = self._service_manager.get_service(name)
            wrapper = self._MANAGERS.get(name)
            self._managers[name] = wrapper(binder) if wrapper else binder
        return self._managers[name]

    @property
    def sdk_int(self) -> int:
        """Build.VERSION.SDK_INT of the device: 36 (Android 16) or 37 (Android 17)."""
        return self._service_manager.sdk_int()

    @property
    def app_function_manager(self) -> AppFunctionManager:
        return self.get_system_service(self.APP_FUNCTION_SERVICE)

    def close(self) -> None:
        close = getattr(self._service_manager, "close", None)
        if close:
            close()

    def __enter__(self) -> "Context":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def connect(address: str, credential: str, data_dir: Path | None = None) -> Context:
    """A Context on a device in another process, as whoever ``credential`` belongs to."""
    from droid.binder.channel import open_channel
    from droid.binder.remote import RemoteServiceManager

    manager = RemoteServiceManager(open_channel(address), credential)
    _uid, package_name = manager.who_am_i()
    return Context(package_name, manager, data_dir)
