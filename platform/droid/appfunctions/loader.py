"""Loading an app folder's code: the service class a manifest names.

An app folder is a Python package. It is imported under a synthetic, unique
package name (``_droidsim_app_<folder>_<hash of its path>``), so two apps that
both have a ``repository.py`` load side by side in one process, and an app's
modules import each other relatively (``from .repository import Orders``).

The manifest's ``<service android:name="com.example.orders.OrderFunctionService">``
names the class ``OrderFunctionService``; its module is the longest suffix of
``com.example.orders`` that exists in the folder: ``com/example/orders.py``,
then ``example/orders.py``, then ``orders.py`` (or a package ``orders/``).
"""

from __future__ import annotations

import difflib
import hashlib
import importlib
import importlib.util
import re
import sys
import threading
import types
from pathlib import Path

from lxml import etree

ANDROID_NS = "http://schemas.android.com/apk/res/android"
_LOCK = threading.RLock()


class AppLoadError(Exception):
    """An app's code cannot be loaded; the message names the file and class."""


def app_package_name(app_dir: Path) -> str:
    """The synthetic import name of ``app_dir``: stable for a path, unique across paths."""
    resolved = Path(app_dir).resolve()
    digest = hashlib.sha1(str(resolved).encode("utf-8")).hexdigest()[:10]
    stem = re.sub(r"\W", "_", resolved.name) or "app"
    return f"_droidsim_app_{stem}_{digest}"


def manifest_package(app_dir: Path) -> str:
    manifest = Path(app_dir) / "AndroidManifest.xml"
    try:
        root = etree.parse(str(manifest), etree.XMLParser(resolve_entities=False, no_network=True)).getroot()
    except (OSError, etree.XMLSyntaxError) as e:
        raise AppLoadError(f"{manifest}: cannot read the manifest: {e}") from e
    package = root.get("package")
    if not package:
        raise AppLoadError(f"{manifest}: <manifest> has no package attribute")
    return package


def expand_class_name(package: str, name: str) -> str:
    """Android's rule: ``.Foo`` and ``Foo`` (no dot) are relative to the package."""
    if name.startswith("."):
        return package + name
    if "." not in name:
        return f"{package}.{name}"
    return name


def candidate_modules(service_name: str) -> list[str]:
    """Module names (relative to the app package) to try, longest suffix first."""
    parts = service_name.split(".")[:-1]
    return [".".join(parts[i:]) for i in range(len(parts))]


def load_app_package(app_dir: Path, *, reload: bool = False) -> types.ModuleType:
    """Import ``app_dir`` as its synthetic package (once per process unless ``reload``)."""
    app_dir = Path(app_dir)
    if not app_dir.is_dir():
        raise AppLoadError(f"{app_dir}: not an app folder")
    name = app_package_name(app_dir)
    with _LOCK:
        if reload:
            unload_app(app_dir)
        module = sys.modules.get(name)
        if module is not None:
            return module
        init = app_dir / "__init__.py"
        if init.is_file():
            spec = importlib.util.spec_from_file_location(
                name, init, submodule_search_locations=[str(app_dir.absolute())]
            )
        else:
            spec = importlib.util.spec_from_loader(name, loader=None, is_package=True)
        if spec is None:
            raise AppLoadError(f"{app_dir}: cannot import it as a package")
        module = importlib.util.module_from_spec(spec)
        if not init.is_file():
            module.__path__ = [str(app_dir.absolute())]
        sys.modules[name] = module
        try:
            if spec.loader is not None:
                spec.loader.exec_module(module)
        except BaseException as e:
            sys.modules.pop(name, None)
            raise AppLoadError(f"{init}: importing the app failed: {type(e).__name__}: {e}") from e
        return module


def unload_app(app_dir: Path) -> None:
    """Forget the app's modules, so the next load reads the files again."""
    name = app_package_name(app_dir)
    with _LOCK:
        for key in [k for k in sys.modules if k == name or k.startswith(name + ".")]:
            del sys.modules[key]
        importlib.invalidate_caches()


def load_app_service_class(app_dir: Path, service_name: str, *, reload: bool = False) -> type:
    """The class the manifest's ``<service android:name>`` names, from ``app_dir``.

    ``service_name`` should be expanded (``com.example.orders.OrderFunctionService``);
    a relative name (``.OrderFunctionService``) is expanded with the manifest's
    package. Raises ``AppLoadError`` naming the file and class on any failure.
    """
    app_dir = Path(app_dir)
    if service_name.startswith(".") or "." not in service_name:
        service_name = expand_class_name(manifest_package(app_dir), service_name)
    class_name = service_name.rsplit(".", 1)[-1]
    package = load_app_package(app_dir, reload=reload)
    tried: list[str] = []
    for module_name in candidate_modules(service_name):
        rel = Path(*module_name.split("."))
        file, pkg_init = app_dir / rel.with_suffix(".py"), app_dir / rel / "__init__.py"
        if not file.is_file() and not pkg_init.is_file():
            tried.append(str(file))
            continue
        source = file if file.is_file() else pkg_init
        try:
            module = importlib.import_module(f"{package.__name__}.{module_name}")
        except BaseException as e:
            raise AppLoadError(
                f"{source}: importing it for service {service_name} failed: {type(e).__name__}: {e}"
            ) from e
        cls = getattr(module, class_name, None)
        if not isinstance(cls, type):
            classes = [name for name, value in vars(module).items() if isinstance(value, type)]
            raise AppLoadError(
                f"{source}: defines no class {class_name} (the service {service_name})"
                f"{_did_you_mean(class_name, classes)}"
            )
        from droid.appfunctions.service import AppFunctionService

        if not issubclass(cls, AppFunctionService):
            raise AppLoadError(
                f"{source}: {class_name} must subclass AppFunctionService (or "
                f"AppFunctionServiceEntryPoint) to be the service {service_name}"
            )
        return cls
    raise AppLoadError(
        f"{app_dir}: no module for service {service_name}; looked for "
        f"{', '.join(tried) or 'nothing (the name has no package)'}{_close_service(app_dir, service_name)}"
    )


def _close_service(app_dir: Path, service_name: str) -> str:
    """A service name whose module does exist, when one module's name is close to the one named."""
    parts = service_name.split(".")
    stems = [p.stem for p in app_dir.glob("*.py") if p.stem != "__init__"]
    close = difflib.get_close_matches(parts[-2], stems, n=1) if len(parts) >= 2 else []
    if not close:
        return ""
    return f"; did you mean {'.'.join([*parts[:-2], close[0], parts[-1]])} ({close[0]}.py)?"


def _did_you_mean(name: str, names: list[str]) -> str:
    close = difflib.get_close_matches(name, names, n=3)
    return f"; did you mean {' or '.join(close)}?" if close else ""
