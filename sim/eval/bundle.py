"""The files a run's devices need, carried to the machines that run its cases.

A Ray cluster's nodes share no filesystem with the machine that runs ``droidsim
eval``: whatever a DeviceSpec names goes into one tar archive that the driver puts
in Ray's object store once. A worker process unpacks it the first time a task
brings it, into a folder of its own, and runs its cases on the spec with the paths
moved there. What a spec names is found by one walk through it (``spec_files``,
``move_files``), the same for listing and for moving, so that no path can be moved
that was not shipped: every absolute path in any field at any depth, the app
folders, the system apps, the variant, an app entry's APK, cassette or double.
What goes into the archive is only what a device reads (``needed_files``): under a
folder the spec names, the app folders it stands for and nothing else beside them, so
a suite that names a folder holding one app folder (a home folder) ships that app, not
the keys beside it. Nothing here imports Ray: the archive travels as whatever ``put``
makes of its bytes, and comes back through ``fetch``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import os
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Any, Callable, Iterable

from pydantic import BaseModel

from sim.eval.apps import AppSource, DeviceSetupError, package_of
from sim.eval.devices import DeviceSpec
from sim.pm.app_folders import app_folders_in
from sim.pm.install_error import InstallError
from sim.pm.installer import IGNORED_NAMES, app_files
from sim.responses.cassette import CassetteError, check_shape, read_cassette_file

_UNPACKED: dict[str, Path] = {}  # this process's folders, by the digest of what they hold


@dataclass(frozen=True)
class Bundle:
    digest: str  # of the archive: a process unpacks each content once
    names: tuple[tuple[str, str], ...]  # (a path on the driver, where it is in the archive)
    archive: tuple[Any, ...]  # one item, an object reference: a task gets it unfetched

    def moved(self, path: str, folder: Path) -> str | None:
        """Where ``path`` (a path on the driver) is once the archive is unpacked in ``folder``;
        None for a path the driver did not have (a spec's other absolute strings)."""
        for root, name in self.names:
            if _within(path, root):
                return str(folder / name / os.path.relpath(path, root))
        return None


def spec_files(spec: Any) -> list[str]:
    """Every file and folder of this machine that a DeviceSpec names: each absolute path that
    exists. A spec names files by absolute path; a relative one would mean another folder in
    another process."""
    found: list[str] = []
    move_files(spec, lambda path: found.append(path) if os.path.lexists(path) else None)
    return sorted(set(found))


def move_files(spec: Any, move: Callable[[str], str | None]) -> Any:
    """``spec`` (plain data: dataclasses, pydantic models, tuples, lists, dicts) with each absolute
    path in it replaced by ``move(path)`` (None: kept as it is)."""
    if isinstance(spec, (str, PurePath)):
        text = os.fspath(spec)
        moved = move(text) if os.path.isabs(text) else None
        return spec if moved is None else type(spec)(moved)
    if dataclasses.is_dataclass(spec) and not isinstance(spec, type):
        return dataclasses.replace(spec, **{f.name: move_files(getattr(spec, f.name), move)
                                            for f in dataclasses.fields(spec) if f.init})
    if isinstance(spec, BaseModel):
        return spec.model_copy(update={name: move_files(value, move) for name, value in spec})
    if isinstance(spec, (list, tuple, frozenset)):
        items = [move_files(item, move) for item in spec]
        return spec._make(items) if hasattr(spec, "_make") else type(spec)(items)
    if isinstance(spec, dict):
        return {key: move_files(value, move) for key, value in spec.items()}
    return spec


def needed_files(spec: DeviceSpec) -> set[str]:
    """What a device of ``spec`` reads: each app folder or APK its apps stand for (a folder of
    app folders stands for the app folders in it, sim/pm/app_folders.py), with its cassette and
    double; the variant; the system image's app folders. A file named as an APK or a cassette
    is read as one here first: what is not one (a key named as a cassette) never leaves."""
    sources = [app for entry in spec.apps for app in entry.apps()]
    for source in sources:
        _require_what_it_is_named(source)
    if spec.variant and Path(spec.variant).is_file():
        package_of(Path(spec.variant), "--variant")
    elif spec.variant:
        _require_installable(Path(spec.variant), "--variant")
    paths = {path for source in sources for path in (source.path, source.responses, source.double) if path}
    paths.update(str(folder) for folder in app_folders_in(Path(spec.system_apps_dir)))
    return paths | ({spec.variant} if spec.variant else set())


def _require_what_it_is_named(source: AppSource) -> None:
    if Path(source.path).is_file():
        source.package()  # an APK: its manifest read, as install will
    for folder in (source.path, source.double):
        if folder and Path(folder).is_dir():
            _require_installable(Path(folder), source.where)
    if source.responses:
        try:
            check_shape(read_cassette_file(Path(source.responses)), Path(source.responses).name)
        except CassetteError as error:
            raise DeviceSetupError(source.named(f"{source.responses} is not a cassette, so it is not sent to the "
                                                f"cluster: {error}")) from None


def _require_installable(folder: Path, where: str | None) -> None:
    """An app folder or a double as install reads one, before any of it leaves: a file of it
    with a second name (a hard link to a key) is refused here as a device here refuses it,
    where the archive would carry its bytes as a file of its own."""
    try:
        app_files(folder)
    except InstallError as error:
        message = f"{folder} is not sent to the cluster: {error}"
        raise DeviceSetupError(f"{where}: {message}" if where else message) from None


def make_bundle(specs: Iterable[DeviceSpec], put: Callable[[bytes], Any]) -> Bundle:
    """What every spec's device needs, packed, the archive handed to ``put`` (``ray.put``)."""
    specs = list(specs)
    paths = sorted({path for spec in specs for path in spec_files(spec)})
    data, names = pack(paths, {path for spec in specs for path in needed_files(spec)})
    return Bundle(hashlib.sha256(data).hexdigest(), names, (put(data),))


def pack(paths: Iterable[str], needed: set[str] | None = None) -> tuple[bytes, tuple[tuple[str, str], ...]]:
    """A tar archive of ``paths`` (a path inside another goes with it), and where each went;
    given ``needed``, of what lies within a needed path only (the folders above one kept as
    folders, nothing else in them). Links stay links; the installer refuses those that lead
    out of an app's folder."""
    roots: list[str] = []
    for path in sorted(paths):
        if not any(_within(path, root) for root in roots):
            roots.append(path)
    names = tuple((root, f"{index}/{Path(root).name}") for index, root in enumerate(roots))
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for root, name in names:
            archive.add(root, arcname=name, filter=_needed_within(root, name, needed))
    return buffer.getvalue(), names


def _needed_within(root: str, name: str, needed: set[str] | None) -> Callable[[tarfile.TarInfo], tarfile.TarInfo | None]:
    """tar's filter for ``root``, archived as ``name``: what lies within a needed path, and the
    folders on the way to one (whose other members it leaves out); no caches."""
    def keep(member: tarfile.TarInfo) -> tarfile.TarInfo | None:
        path = os.path.normpath(os.path.join(root, os.path.relpath(member.name, name)))
        wanted = needed is None or any(_within(path, n) for n in needed) or (
            member.isdir() and any(_within(n, path) for n in needed))
        return _without_caches(member) if wanted else None

    return keep


def _within(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _without_caches(member: tarfile.TarInfo) -> tarfile.TarInfo | None:
    base = os.path.basename(member.name)
    return None if base in IGNORED_NAMES or base.endswith(".pyc") else member


def unpack(data: bytes, folder: Path) -> None:
    """Tar's ``data`` filter: no absolute names, no links out of ``folder``, no devices."""
    with tarfile.open(fileobj=io.BytesIO(data), mode="r") as archive:
        archive.extractall(folder, filter="data")


def local_spec(spec: DeviceSpec, bundle: Bundle, fetch: Callable[[Any], bytes]) -> DeviceSpec:
    """``spec`` with its files in this process's copy of the bundle, unpacked on first use
    into a temporary folder (the worker's own: sim/eval/execution.py removes it)."""
    folder = _UNPACKED.get(bundle.digest)
    if folder is None:
        folder = Path(tempfile.mkdtemp(prefix="droidsim-eval-files-"))
        unpack(fetch(bundle.archive[0]), folder)
        _UNPACKED[bundle.digest] = folder
    return move_files(spec, lambda path: bundle.moved(path, folder))
