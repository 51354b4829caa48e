"""What a phone indexes of the app (I2): the notes install gives, for each SDK.

Install indexes what the device's SDK indexes and notes what it leaves out (sim/pm/indexer.py);
lint runs that for Android 16 and 17 alike, so that an app built on one sees what the other
loses: no app schema (nothing on 16, bare ids on 17), a service without the bind permission,
an element the app schema does not declare, an omitted <enabledByDefault>. Android 16's one
service per package is R1's (sim/lint/checks/services.py). ``droidsim lint`` runs it, not the
install-time lint: install logs the same notes itself.
"""

from __future__ import annotations

from typing import Iterator

from sim.lint.findings import Issue
from sim.lint.model import App
from sim.lint.rules import WARNING
from sim.platform_version import ANDROID_16, ANDROID_17
from sim.pm.function_files import ADD_SCHEMA, ADD_SCHEMA_KOTLIN, RESOURCE_V1_FIX, RESOURCE_V1_FIX_KOTLIN
from sim.pm.index_notes import APP_LEVEL, ONE_SERVICE, SKIPPED
from sim.pm.indexer import index_app
from sim.pm.install_error import InstallError
from sim.pm.manifest import parse_manifest
from sim.xmlsafe import XmlError

_ADVICE = frozenset({SKIPPED, APP_LEVEL})  # nothing an agent needs is lost: a warning
# A fix as a Kotlin developer makes it (Gradle, KSP, src/main/), where it differs.
_KOTLIN_FIXES = {ADD_SCHEMA: ADD_SCHEMA_KOTLIN, RESOURCE_V1_FIX: RESOURCE_V1_FIX_KOTLIN}


def check_indexing(app: App) -> Iterator[Issue]:
    try:
        manifest = parse_manifest(app.app_dir / "AndroidManifest.xml")
    except XmlError:
        return  # the lint reader read it; a manifest it cannot is I1's
    for version in (ANDROID_16, ANDROID_17):
        try:
            indexed = index_app(manifest, app.app_dir, version)
        except InstallError as error:
            if version is ANDROID_16:  # what Android 17 (install's default) refuses is I1's
                yield Issue("I2", app.scope, f"Android 16 indexes none of the app's functions: {error}",
                            "Make the file as Android 16's indexer reads it (the message says what it refuses).")
            continue
        for note in indexed.notes:
            if note.kind != ONE_SERVICE:
                fix = _KOTLIN_FIXES.get(note.fix, note.fix) if app.kotlin else note.fix
                yield Issue("I2", app.scope, note.message, fix, line=note.line, file=note.file,
                            severity=WARNING if note.kind in _ADVICE else None)
