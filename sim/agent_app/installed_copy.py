"""The installed copy an agent app's agent runs from, against the folder it was installed from.

Install copies an app folder into the device (PackageInfo.code_path), so an edit of the folder
changes nothing until the app is installed again. ``droidsim agent --as`` and ``droidsim mcp
--as`` say so when the folder no longer matches what was installed (the same digest of every
file the installer took, sim/pm/installer.py ``source_hash``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sim.pm.installed_from import FOLDER


def edited_since_install(context: Any) -> str | None:
    """A warning when the folder ``context``'s app was installed from has changed since; None when
    it has not, or nothing says (an APK, a folder gone or unreadable)."""
    from sim.pm.installer import InstallError, source_hash

    own = next((p for p in context.get_system_service("package").list_packages()
                if p.package_name == context.package_name), None)
    source = own.installed_from if own is not None else None
    if source is None or source.kind != FOLDER or not source.folder or not source.sha256:
        return None
    folder = Path(source.folder)
    try:
        if source_hash(folder) == source.sha256:
            return None
    except (OSError, InstallError):
        return None
    return (f"{folder} has changed since {own.package_name} was installed from it: its agent runs from the copy "
            f"install made ({own.code_path}), without the changes; `droidsim install {folder}` to run them")
