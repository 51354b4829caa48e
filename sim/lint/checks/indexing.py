"""What a phone indexes of the app (I2): the notes install gives, for each SDK; and an app of
which no phone indexes anything (I3), as a build that lost its AppFunctions library or KSP is.

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
from sim.pm.function_xml import UNDECLARED_FIX, UNDECLARED_FIX_KOTLIN
from sim.pm.index_notes import APP_LEVEL, ONE_SERVICE, SKIPPED
from sim.pm.function_files import declared_function_xml_files
from sim.pm.indexer import index_app
from sim.pm.install_error import InstallError
from sim.pm.install_warnings import AGENT_PERMISSIONS, why_no_functions
from sim.pm.manifest import SERVICE_INTERFACE, Manifest, parse_manifest
from sim.xmlsafe import XmlError

_ADVICE = frozenset({SKIPPED, APP_LEVEL})  # nothing an agent needs is lost: a warning
# A fix as a Kotlin developer makes it (Gradle, KSP, src/main/), where it differs.
_KOTLIN_FIXES = {ADD_SCHEMA: ADD_SCHEMA_KOTLIN, RESOURCE_V1_FIX: RESOURCE_V1_FIX_KOTLIN,
                 UNDECLARED_FIX: UNDECLARED_FIX_KOTLIN}


def check_indexing(app: App) -> Iterator[Issue]:
    try:
        manifest = parse_manifest(app.app_dir / "AndroidManifest.xml")
    except XmlError:
        return  # the lint reader read it; a manifest it cannot is I1's
    found = 0
    for version in (ANDROID_16, ANDROID_17):
        try:
            indexed = index_app(manifest, app.app_dir, version)
        except InstallError as error:
            if version is ANDROID_16:  # what Android 17 (install's default) refuses is I1's
                undeclared = app.kotlin and "in the app schema" in str(error)
                yield Issue("I2", app.scope, f"Android 16 indexes none of the app's functions: {error}",
                            UNDECLARED_FIX_KOTLIN if undeclared else
                            "Make the file as Android 16's indexer reads it (the message says what it refuses).")
            found += 1  # refused, not empty: I1's and the above
            continue
        found += sum(len(read.document.functions) for read in indexed.files)
        for note in indexed.notes:
            if note.kind != ONE_SERVICE:
                fix = _KOTLIN_FIXES.get(note.fix, note.fix) if app.kotlin else note.fix
                yield Issue("I2", app.scope, note.message, fix, line=note.line, file=note.file,
                            severity=WARNING if note.kind in _ADVICE else None)
    if not found and not set(AGENT_PERMISSIONS) & set(manifest.uses_permissions):
        yield _no_functions(app, manifest)


def _no_functions(app: App, manifest: Manifest) -> Issue:
    """I3: neither Android 16 nor 17 indexes a function (and the app is no agent, which needs none)."""
    declared = sorted({f.service_name for f in _declared(manifest, app)})
    has_service = any(SERVICE_INTERFACE in s.actions for s in manifest.services)
    reason, setup = why_no_functions(declared, has_service, "neither Android 16 nor Android 17")
    if not app.kotlin:
        fix = ("Declare its functions with @app_function in an AppFunctionServiceEntryPoint, and write the XML with "
               f"droidsim appfunctions generate {app.app_dir}.")
    elif setup is None:
        fix = 'Enable the service on the SDKs the app supports (android:enabled="true", or a @bool/ true there).'
    else:
        fix = setup[0].upper() + setup[1:] + "."
    return Issue("I3", app.scope, f"{app.package} has no AppFunctions a phone indexes: {reason}.", fix)


def _declared(manifest: Manifest, app: App):
    from sim.pm.function_xml import parse_function_xml
    from sim.xmlsafe import XmlError as _XmlError

    for file in declared_function_xml_files(manifest, app.app_dir):
        try:
            yield from parse_function_xml(file.path, manifest.package, file.service_name, format=file.format).functions
        except _XmlError:
            continue
