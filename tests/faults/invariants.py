"""What must hold of a device's data directory after any crash, checked on the restored Device.

Every package the registry knows is whole: its copy is complete (it hashes to what was
installed), its credential file proves its identity, and the index serves exactly the
functions its metadata declares. Nothing is left of a package that is not installed: no app
copy, no data folder, no rows in any table keyed by package.
"""

from __future__ import annotations

from droid.os.binder import CallingIdentity
from sim.device import Device
from sim.data.store import PACKAGE_COLUMNS
from sim.pm.installer import source_hash

# The history also records calls to packages that never existed, so only its rows about an
# uninstalled package must go (the uninstall tests check that).
STATE_TABLES = {table: columns for table, columns in PACKAGE_COLUMNS.items() if table != "access_history"}


def check_device_invariants(device: Device) -> None:
    installed = {p.package_name: p for p in device.registry.all()}
    assert sorted(installed) == sorted(row.package_name for row in device.store.packages())
    for name, package in installed.items():
        assert package.app_dir.parent == device.data_dir / "app", f"{name}: copy outside data/app: {package.app_dir}"
        assert (package.app_dir / "AndroidManifest.xml").is_file(), f"{name}: its copy {package.app_dir} is gone"
        assert source_hash(package.app_dir) == package.source_hash, f"{name}: its copy {package.app_dir} is incomplete"
        credential = package.credential_file
        assert credential.is_file(), f"{name}: no credential file"
        identity = device.authenticator.identify(credential.read_text().strip())
        assert identity == CallingIdentity(package.uid, name), f"{name}: its credential file proves {identity}"
        for function in package.metadata.app_functions:
            indexed = device.index.lookup(name, function.id)
            assert indexed is not None and indexed.metadata == function, f"{name}: {function.id} is not indexed"
    indexed_packages = {p.package_name for p in device.index.packages()}
    assert indexed_packages == {n for n, p in installed.items()}, f"index serves {indexed_packages}"

    copies = {p.app_dir for p in installed.values()}
    leftovers = [c.name for c in (device.data_dir / "app").iterdir() if c not in copies] if (device.data_dir / "app").exists() else []
    assert not leftovers, f"app copies no install refers to: {leftovers}"
    data_root = device.data_dir / "data"
    orphans = [d.name for d in data_root.iterdir() if d.name not in installed] if data_root.exists() else []
    assert not orphans, f"data folders of packages that are not installed: {orphans}"
    for package in installed.values():
        strays = [f.name for f in package.data_dir.iterdir() if f.name != "credential" and "credential" in f.name]
        assert not strays, f"{package.package_name}: half-written credentials left: {strays}"

    for table, columns in STATE_TABLES.items():
        for column in columns:
            rows = device.store.query(f"SELECT DISTINCT {column} FROM {table}")
            strangers = sorted(r[0] for r in rows if r[0] not in installed)
            assert not strangers, f"{table}.{column} keeps rows of packages that are not installed: {strangers}"
