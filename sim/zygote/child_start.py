"""How every device child starts: an isolated interpreter in a folder nobody else can write.

A child (an app process, the verifier's zygote) runs device code before it drops to an app's
uid or confines itself, and as root that code must not come from anywhere an app or another
local user can write. Python looks in four such places at start-up: the working folder
(``python -m`` puts it first on ``sys.path``), the user site under ``HOME``
(``~/.local/lib/pythonX.Y/site-packages``, whose ``.pth`` files run), and ``PYTHON*``
variables (``PYTHONPATH``, ``PYTHONSTARTUP``...). So a child starts with ``-I`` (none of
them), in ``/``, with ``HOME=/``; it moves into the app's own folder only after the drop
(``move_into``). Its import path is the interpreter's own (stdlib, the venv or
site-packages droidsim is installed in) plus, where droidsim runs from a checkout that is not
installed, the folders the device itself imports its own packages from.
"""

from __future__ import annotations

import importlib.machinery
import os
import site
import sys
import sysconfig
import tempfile
from pathlib import Path

# Where a child starts, and its HOME until it moves into its own folder: root's, never writable
# by an app or another user.
START_FOLDER = "/"
_PATH = "/usr/local/bin:/usr/bin:/bin"
# The device's own top-level packages: a child must import them from where the device does.
_DEVICE_PACKAGES = ("sim", "droid", "droidsim")
_BOOT = ("import os, runpy, sys; roots, module = sys.argv[1:3]; del sys.argv[1:3]; "
         "sys.path[:0] = roots.split(os.pathsep); runpy.run_module(module, run_name='__main__', alter_sys=True)")


def python_command(module: str, *args: str, shares_device_uid: bool) -> list[str]:
    """``python -I -m module args``, with the device's own code roots where the isolated
    interpreter would not find them. ``shares_device_uid``: the child runs as the device's
    user, so the device's bytecode cache settings (PYTHONDONTWRITEBYTECODE,
    PYTHONPYCACHEPREFIX) are passed on as flags; a cache shared between uids is never passed,
    as it would let one app plant compiled code for another."""
    flags = ["-I", *(_bytecode_flags() if shares_device_uid else [])]
    roots = _roots_not_installed()
    if not roots:
        return [sys.executable, *flags, "-m", module, *args]
    return [sys.executable, *flags, "-c", _BOOT, os.pathsep.join(roots), module, *args]


def _bytecode_flags() -> list[str]:
    flags = ["-B"] if os.environ.get("PYTHONDONTWRITEBYTECODE") else []
    prefix = os.environ.get("PYTHONPYCACHEPREFIX")
    return [*flags, "-X", f"pycache_prefix={prefix}"] if prefix else flags


def interpreter_folders() -> list[str]:
    """The interpreter's own files: its stdlib and the site-packages it installs into (the
    venv's, where it runs from one); what ``-I`` puts on a child's path."""
    paths = sysconfig.get_paths()
    folders = [paths[name] for name in ("stdlib", "platstdlib", "purelib", "platlib")]
    folders += site.getsitepackages()
    return [folder for folder in dict.fromkeys(folders) if os.path.isdir(folder)]


def _roots_not_installed() -> list[str]:
    """The folders holding the device's packages that neither the interpreter's own
    folders nor an installed finder (an editable install's) would find in a child."""
    own = interpreter_folders()
    roots = []
    for name in _DEVICE_PACKAGES:
        module = sys.modules.get(name)
        locations = list(getattr(module, "__path__", None) or [])
        if not locations or _installed(name, own):
            continue
        root = os.path.dirname(os.path.abspath(locations[0]))
        if root not in roots:
            roots.append(root)
    return roots


def _installed(name: str, own: list[str]) -> bool:
    if importlib.machinery.PathFinder.find_spec(name, own) is not None:
        return True
    return any(finder.find_spec(name, None) is not None for finder in _installed_finders(own))


def _installed_finders(own: list[str]) -> list:
    """The import hooks a child gets too: those an installed ``.pth`` added (an editable
    install's finder), told apart by their module living in the interpreter's own folders."""
    finders = []
    for finder in sys.meta_path:
        name = getattr(finder, "__module__", "")
        if name.startswith("_frozen_importlib"):  # the interpreter's own, searching sys.path
            continue
        module = sys.modules.get(name)
        file = getattr(module, "__file__", None) or ""
        if any(file.startswith(folder + os.sep) for folder in own) and hasattr(finder, "find_spec"):
            finders.append(finder)
    return finders


def start_environment(extra: dict[str, str]) -> dict[str, str]:
    """What a child starts with: a plain PATH, HOME at the start folder, and what the device
    adds; none of the device's own variables (API keys, tokens, PYTHON*) reach it."""
    return {"HOME": START_FOLDER, "PATH": _PATH, "LANG": "C.UTF-8", **extra}


def move_into(home: Path, reachable: Path | None = None) -> None:
    """After the drop: the app's own folder becomes the working folder, HOME and TMPDIR
    (``reachable``: the name this uid reaches it by, where that differs from ``home``)."""
    os.chdir(reachable or home)
    os.environ["HOME"] = os.environ["TMPDIR"] = str(home)
    tempfile.tempdir = None  # found again from TMPDIR on first use
