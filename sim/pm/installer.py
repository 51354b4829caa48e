"""PackageInstaller: turns an app folder into an installed package, atomically.

Parse and check everything first (sim/pm/app_parser.py: manifest, function XML, code), then copy the
folder under the data directory and commit one database transaction. Any
refusal happens before the commit, so a refused app leaves nothing behind.
"""

from __future__ import annotations

import hashlib
import logging
import os
import secrets
import shutil
import stat
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from droid.appfunctions.metadata import AppFunctionPackageMetadata
from droid.os.binder import FIRST_APPLICATION_UID, SHELL_PACKAGE, SYSTEM_PACKAGE, CallingIdentity
from sim.data.store import DeviceStore, PackageRow
from droidsim.v1.metadata_pb2 import InstalledFrom
from sim import safe_files
from sim.identity import hash_secret, new_secret, read_secret, write_secret
from sim.pm.decoded_apks import DecodedApks
from sim.pm.install_error import InstallError
from sim.pm.installed_from import FOLDER
from sim.pm.registry import InstalledPackage, ManifestFacts
from sim.responses.installed import RESPONSES_DIR
from sim.responses.staging import BAD_RESPONSES, ResponseOptions, answer_source, double_to_stage, stage_source, staged_double_dir
from sim.platform_version import NEWEST, PlatformVersion
from sim.zygote.specialize import os_isolation, own_for_app

if TYPE_CHECKING:
    from sim.apk.decode import DecodedApk
    from sim.pm.code_verifier import CodeVerifier

log = logging.getLogger("droidsim.pm")

IGNORED_NAMES = {"__pycache__", ".pytest_cache", ".DS_Store"}
# An install's new credential waits here until its transaction commits (see install()).
PENDING_CREDENTIAL = "credential.pending"
# An app folder is read whole (hashed, then copied), so it must be bounded, as an APK is.
MAX_APP_BYTES = 256 * 1024 * 1024


def source_hash(app_dir: Path) -> str:
    """A digest of every file's path and bytes: an unchanged app need not reinstall."""
    digest = hashlib.sha256()
    for path in sorted(app_files(app_dir)):
        digest.update(str(path.relative_to(app_dir)).encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


def app_files(app_dir: Path) -> list[Path]:
    """Every file of the app, each a regular file (a link to one inside the folder is read
    through), all of them together within MAX_APP_BYTES: a FIFO or a huge sparse file would
    otherwise be read without end, and a link out of the folder (to /dev/zero, to the
    device's credentials) would put what it names into the app."""
    files, total = [], 0
    for root, dirs, names in os.walk(app_dir):
        dirs[:] = [d for d in dirs if d not in IGNORED_NAMES]
        for name in dirs:
            if os.path.islink(os.path.join(root, name)):
                raise InstallError("INSTALL_FAILED_INVALID_APK", f"{Path(root) / name} links to a folder")
        for name in names:
            if name in IGNORED_NAMES or name.endswith(".pyc"):
                continue
            path = Path(root) / name
            _refuse_link_outside(path, app_dir)
            try:
                status = path.stat()
            except OSError as error:
                raise InstallError("INSTALL_FAILED_INVALID_APK", f"{path} cannot be read: {error.strerror}") from None
            if not stat.S_ISREG(status.st_mode):
                raise InstallError("INSTALL_FAILED_INVALID_APK", f"{path} is not a regular file")
            if status.st_nlink > 1:
                raise InstallError("INSTALL_FAILED_INVALID_APK", _hard_linked(path, status.st_nlink))
            total += status.st_size
            if total > MAX_APP_BYTES:
                raise InstallError("INSTALL_FAILED_INVALID_APK", f"{app_dir} holds more than {MAX_APP_BYTES} bytes")
            files.append(path)
    return files


def _hard_linked(path: Path, links: int) -> str:
    return f"{path} has {links} hard links: an app's file must be its own (another name may be a secret)"


def _refuse_link_outside(path: Path, folder: Path) -> None:
    if path.is_symlink() and not Path(os.path.realpath(path)).is_relative_to(os.path.realpath(folder)):
        raise InstallError(
            "INSTALL_FAILED_INVALID_APK", f"{path} links outside the app folder (to {os.readlink(path)})"
        )


# Packages only the system image has: the platform and the shell (not installable at all).
BUILT_IN_PACKAGES = frozenset({SYSTEM_PACKAGE, SHELL_PACKAGE})
_COPY_SUFFIX_BYTES = len("-") + 12 + len("..staging")


class PackageInstaller:
    def __init__(
        self, data_dir: Path, store: DeviceStore, verifier: CodeVerifier, version: PlatformVersion = NEWEST,
        os_uid: Callable[[int], int] = lambda uid: uid, traversable: bool = False,
        decoded_apks: DecodedApks | None = None,
    ) -> None:
        self._apps_root = data_dir / "app"
        self._data_root = data_dir / "data"
        self._store = store
        self._verifier = verifier
        self._decoded_apks = decoded_apks or DecodedApks()
        self._version = version
        # The Linux uid an assigned uid runs as (sim/zygote/os_user.py).
        self._os_uid = os_uid
        # Apps under their own uids walk through these folders to their own, never list them.
        for root in (self._apps_root, self._data_root):
            root.mkdir(exist_ok=True)
            root.chmod(0o711 if traversable else 0o700)

    def data_dir_for(self, package_name: str) -> Path:
        return self._data_root / package_name

    def install(
        self,
        app_dir: Path,
        system: bool,
        installed: Callable[[str], InstalledPackage | None],
        check_manifest: ManifestCheck,
        responses: ResponseOptions = ResponseOptions(),
    ) -> tuple[InstalledPackage, str]:
        """Install or update from an app folder or an APK; returns the package, with what its
        developer should be told in ``install_notes`` (what the SDK's indexer leaves out,
        sim/pm/index_notes.py, then sim/pm/install_warnings.py), and its new credential secret.
        ``responses``: where a code-less app's answers come from (sim/responses/staging.py); an
        APK is always code-less."""
        from sim.pm.apk_install import check_minimum_scheme, check_signers, stage_apk  # at install, not at boot

        app_dir = app_dir.resolve()
        token = secrets.token_hex(6)
        staging = self._apps_root / f".{token}.staging"
        decoded = None
        double_shown = None  # how refusals name the double: the user's folder, not its staged copy
        source = InstalledFrom(kind=FOLDER)
        if app_dir.is_file():  # an APK, whatever its name: its content decides (sim/pm/apk_install.py)
            digest = None
        else:
            if not (app_dir / "AndroidManifest.xml").is_file():  # before hashing: never read a whole tree
                raise InstallError("INSTALL_PARSE_FAILED_NOT_APK", f"{app_dir / 'AndroidManifest.xml'} does not exist")
            if os.path.lexists(app_dir / RESPONSES_DIR):
                raise InstallError("INSTALL_FAILED_INVALID_APK",
                                   f"{app_dir / RESPONSES_DIR}: that name is the device's own (an installed app's response source)")
            digest = source_hash(app_dir)
            source = InstalledFrom(kind=FOLDER, folder=str(app_dir), sha256=digest)
        try:
            if digest is None:
                decoded, source = stage_apk(app_dir, staging, self._verifier, self._version.sdk_int,
                                            self._decoded_apks)
                digest = source.sha256
            else:
                _copy_app(app_dir, staging)
                self._check_extracted_for(staging, app_dir)  # the device's copy: nothing can change it now

            def check(manifest: ManifestFacts) -> None:
                nonlocal double_shown
                previous = installed(manifest.package)
                self._check_name(manifest.package, system, previous)
                check_signers(manifest.package, previous, source)
                if decoded:
                    check_minimum_scheme(manifest.package, staging / "AndroidManifest.xml", source)
                check_manifest(manifest)
                # The double is staged now, so that the code checks that follow check it.
                staged = double_to_stage(responses, previous.app_dir if previous else None)
                if staged is not None:
                    double, double_shown = staged
                    app_files(double)  # regular files only, links kept inside, bounded: as an app folder
                    staged_double_dir(staging).parent.mkdir(mode=0o755, exist_ok=True)  # _copy_app makes one folder
                    _copy_app(double, staged_double_dir(staging))

            from sim.pm.app_parser import parse_app  # the XML stack loads at the first install, not at boot
            from sim.pm.install_warnings import install_warnings

            parsed = parse_app(staging if decoded else app_dir, self._verifier, check, self._version, code_dir=staging,
                               double_dir=staged_double_dir(staging))
            earlier = installed(parsed.manifest.package)
            warnings = [str(note) for note in parsed.notes] + install_warnings(parsed, source, self._version)
            if parsed.code_less:
                warnings += stage_source(staging, responses, earlier.app_dir if earlier else None, parsed.metadata,
                                         parsed.unindexed)
            elif responses.given:
                raise InstallError(BAD_RESPONSES, f"{app_dir} has Python code of its own: --responses, --double and "
                                                  "--on-miss are for an app without (docs/responses.md)")
            else:
                parsed.metadata.answers.CopyFrom(answer_source(None))
        except BaseException as error:
            shutil.rmtree(staging, ignore_errors=True)
            if isinstance(error, InstallError):
                raise _in_user_terms(error, staging, app_dir, decoded, double_shown) from None
            raise
        parsed.metadata.installed_from.CopyFrom(source)
        package_name = parsed.manifest.package
        previous = installed(package_name)
        target = self._apps_root / f"{package_name}-{token}"
        os.replace(staging, target)
        secret = new_secret()
        data_dir = self.data_dir_for(package_name)
        pending = data_dir / PENDING_CREDENTIAL
        try:
            # The old credential stays valid until the commit; a crash between the commit and
            # the rename below is settled at boot by the hash the commit stored. An update
            # writes into the app's own folder: the new file is the app's from its creation.
            write_secret(pending, secret, self._owner_of(previous.uid) if previous else None)
            with self._store.transaction() as db:
                uid = previous.uid if previous else self._store.next_uid(db, FIRST_APPLICATION_UID)
                row = PackageRow(
                    package_name, uid, str(target), system, digest, hash_secret(secret),
                    parsed.manifest.to_json().encode(), parsed.metadata.SerializeToString(),
                    time.time(),
                )
                self._store.put_package(db, row)
        except BaseException:
            shutil.rmtree(target, ignore_errors=True)
            if previous is None:
                shutil.rmtree(data_dir, ignore_errors=True)
            else:
                pending.unlink(missing_ok=True)
            raise
        safe_files.replace(data_dir, PENDING_CREDENTIAL, "credential")
        if previous is None:  # the folder is still the device's: nothing of the app's is in it yet
            own_for_app(data_dir / "credential", self._os_uid(row.uid), 0o600)
        own_for_app(data_dir, self._os_uid(row.uid), 0o700)
        if previous is not None:
            shutil.rmtree(previous.app_dir, ignore_errors=True)
        _log_lint_warnings(target, package_name, from_apk=decoded is not None)
        return replace(package_from_row(row, data_dir), install_notes=tuple(warnings)), secret

    def _check_extracted_for(self, copy: Path, app_dir: Path) -> None:
        """A folder ``droidsim apk extract`` wrote holds the literals of one SDK (an enabled
        state, a string); on a device of another it would index what that device does not."""
        from sim.apk.extract_record import EXTRACT_RECORD, read_extract_record

        try:
            record = read_extract_record(copy)
        except ValueError as error:
            raise InstallError("INSTALL_FAILED_INVALID_APK", str(error).replace(str(copy), str(app_dir))) from None
        sdk = self._version.sdk_int
        if record is not None and record.sdk != sdk:
            raise InstallError(
                "INSTALL_FAILED_OLDER_SDK" if record.sdk > sdk else "INSTALL_FAILED_NEWER_SDK",
                f"{app_dir} was extracted from {record.apk} for SDK {record.sdk} ({EXTRACT_RECORD}); this device is "
                f"{self._version.name}: extract it again with --sdk {sdk}, or install the APK")

    def _owner_of(self, uid: int) -> int | None:
        """The OS uid whose files an app's are, where the device gives apps their own."""
        return self._os_uid(uid) if os_isolation() else None

    def _check_name(self, package_name: str, system: bool, previous: InstalledPackage | None) -> None:
        """The platform's own names are never installable; a system package is replaced only
        by a system install (on Android, by one signed with the system image's key); a name
        must fit this file system as a folder name."""
        if package_name in BUILT_IN_PACKAGES:
            raise InstallError("INSTALL_FAILED_UPDATE_INCOMPATIBLE",
                               f"{package_name} is the platform's own package and cannot be installed")
        if previous is not None and previous.system and not system:
            raise InstallError("INSTALL_FAILED_UPDATE_INCOMPATIBLE",
                               f"{package_name} is a system package: only a system install (--system) may replace it")
        limit = os.pathconf(self._apps_root, "PC_NAME_MAX") - _COPY_SUFFIX_BYTES
        if len(package_name.encode()) > limit:
            raise InstallError("INSTALL_PARSE_FAILED_BAD_PACKAGE_NAME",
                               f"package name is {len(package_name.encode())} bytes; this device's file system "
                               f"allows at most {limit}")

    def uninstall(self, package: InstalledPackage) -> None:
        with self._store.transaction() as db:
            self._store.delete_package(db, package.package_name)
        shutil.rmtree(package.app_dir, ignore_errors=True)
        shutil.rmtree(package.data_dir, ignore_errors=True)

    def clear_data(self, package: InstalledPackage) -> None:
        """``pm clear``: the app's files go (links, not what they name), its identity stays."""
        for name in os.listdir(package.data_dir) if package.data_dir.exists() else ():
            if name != "credential":
                safe_files.remove(package.data_dir, name)

    def collect_garbage(self, installed: list[InstalledPackage]) -> None:
        """At boot, finish what a crash interrupted: remove app copies and data folders that
        no committed install refers to, and settle each staged credential by its commit."""
        copies = {p.app_dir.resolve() for p in installed}
        _remove_children(self._apps_root, lambda child: child.resolve() not in copies)
        names = {p.package_name for p in installed}
        _remove_children(self._data_root, lambda child: child.name not in names)
        committed = dict(self._store.query("SELECT package_name, credential_hash FROM packages"))
        for package in installed:
            _settle_credential(package.data_dir, committed[package.package_name])


def _remove_children(folder: Path, unwanted: Callable[[Path], bool]) -> None:
    for child in folder.iterdir() if folder.exists() else ():
        if unwanted(child):
            shutil.rmtree(child, ignore_errors=True)


def _settle_credential(data_dir: Path, committed_hash: str) -> None:
    """A staged credential becomes the credential if its install committed, else it goes;
    so do files a crash left half-written."""
    pending = data_dir / PENDING_CREDENTIAL
    if os.path.lexists(pending):
        try:
            committed = hash_secret(read_secret(pending)) == committed_hash
        except safe_files.RefusedFileError as refused:  # the app put something else in its place
            log.warning("%s; removed it", refused)
            committed = False
        if committed:
            safe_files.replace(data_dir, PENDING_CREDENTIAL, "credential")
        else:
            safe_files.remove(data_dir, PENDING_CREDENTIAL)
    for half_written in data_dir.glob(".credential*.tmp"):
        safe_files.remove(data_dir, half_written.name)


def _in_user_terms(error: InstallError, staging: Path, source: Path, decoded: DecodedApk | None,
                   double_shown: str | None) -> InstallError:
    """``error`` naming what the user has rather than the staged copy, which is gone by the time
    they read it: their double's folder, the APK's entries, the APK or folder they installed."""
    detail = error.args[0][len(error.reason) + 2:]
    if double_shown is not None:
        detail = detail.replace(str(staged_double_dir(staging)), double_shown)
    if decoded is not None:
        from sim.apk.folder import in_apk_terms

        detail = in_apk_terms(detail, staging, source.name, decoded)
    return InstallError(error.reason, detail.replace(str(staging), str(source)))


def _log_lint_warnings(app_dir: Path, package_name: str, from_apk: bool) -> None:
    """Quality findings are advice: written to the device log (logcat) at INFO, never a
    reason to refuse, and not worked out at all when nothing records INFO (a test device).
    This runs after the commit, so a lint that fails must not fail the install. ``from_apk``:
    the copy holds one SDK's resources, so what Android 16 indexes of it is not known here."""
    if not log.isEnabledFor(logging.INFO):
        return
    from sim.lint.runner import lint_installed_app

    try:
        findings = lint_installed_app(app_dir, android16_services_known=not from_apk)
    except Exception as error:  # lint is advice; whatever stops it, the install stands
        log.info("%s lint could not run: %s", package_name, error)
        return
    for finding in findings:
        log.info("%s lint: %s", package_name, finding.one_line())


def package_from_row(row: PackageRow, data_dir: Path) -> InstalledPackage:
    return InstalledPackage(
        package_name=row.package_name,
        uid=row.uid,
        app_dir=Path(row.app_dir),
        data_dir=data_dir,
        system=row.system,
        manifest=ManifestFacts.from_json(row.manifest),
        metadata=AppFunctionPackageMetadata.FromString(row.metadata),
        source_hash=row.source_hash,
    )


def identity_of(package: InstalledPackage) -> CallingIdentity:
    return CallingIdentity(package.uid, package.package_name)


def _copy_app(source: Path, target: Path) -> None:
    """Links copied as links (never followed), each still inside the copy; readable by every
    uid (0755 folders, 0644 files, as an APK is) and writable by the device only. Each file is
    read through a descriptor opened without following a link and checked again there (a
    regular file with one link, within the size bound), so what was checked is what is copied
    even if the folder changes meanwhile."""
    budget = [MAX_APP_BYTES]
    source_fd = safe_files.open_folder(source)
    try:
        _copy_folder(source_fd, source, target, target, budget)
    except safe_files.RefusedFileError as refused:
        raise InstallError("INSTALL_FAILED_INVALID_APK", str(refused)) from None
    finally:
        os.close(source_fd)


def _copy_folder(source_fd: int, source: Path, target: Path, copy_root: Path, budget: list[int]) -> None:
    target.mkdir(parents=True)  # a double goes into a folder of the staged copy that may not exist yet
    target.chmod(0o755)
    for name in sorted(os.listdir(source_fd)):
        if name in IGNORED_NAMES or name.endswith(".pyc"):
            continue
        status = os.stat(name, dir_fd=source_fd, follow_symlinks=False)
        if stat.S_ISLNK(status.st_mode):
            (target / name).symlink_to(os.readlink(name, dir_fd=source_fd))
            _refuse_link_outside(target / name, copy_root)
        elif stat.S_ISDIR(status.st_mode):
            folder_fd = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=source_fd)
            try:
                _copy_folder(folder_fd, source / name, target / name, copy_root, budget)
            finally:
                os.close(folder_fd)
        else:
            data = safe_files.read_file(source / name, budget[0], dir_fd=source_fd)
            budget[0] -= len(data)
            mode = 0o755 if status.st_mode & 0o111 else 0o644
            safe_files.write_file(target, name, data, mode=mode, durable=False)
