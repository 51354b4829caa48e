"""The manifest and app metadata of an app with one AppFunctionService, for tools that
generate apps.

Generated apps (the bench's, eval's distractors, ``droidsim appfunctions new``) need the same
few lines an app developer writes; one template keeps them in step with what the installer
reads (sim/pm/manifest.py, sim/pm/app_metadata.py).
"""

from __future__ import annotations

from xml.sax.saxutils import quoteattr

_MANIFEST = """<?xml version="1.0" encoding="utf-8"?>
<manifest xmlns:android="http://schemas.android.com/apk/res/android"
    package={package}>
    <application android:label={label}>
        <property android:name="android.app.appfunctions.app_metadata"
            android:resource="@xml/app_metadata" />
        <service android:name={service}
            android:permission="android.permission.BIND_APP_FUNCTION_SERVICE"
            android:exported="true">
            <intent-filter>
                <action android:name="android.app.appfunctions.AppFunctionService" />
            </intent-filter>
            <property android:name="android.app.appfunctions.schema" android:value="app_functions_schema.xsd" />
            <property android:name="android.app.appfunctions.v2" android:value={asset} />
        </service>
    </application>
</manifest>
"""


def service_app_manifest(package: str, label: str, service: str, asset: str) -> str:
    """AndroidManifest.xml text: ``service`` (a full class name) serves the function XML ``asset``,
    read against the library's app schema (``droidsim appfunctions generate`` writes both assets)."""
    return _MANIFEST.format(package=quoteattr(package), label=quoteattr(label), service=quoteattr(service),
                            asset=quoteattr(asset))


_APP_METADATA = """<?xml version="1.0" encoding="utf-8"?>
<AppFunctionAppMetadata xmlns:appfn="http://schemas.android.com/apk/res-auto"
    appfn:description={description}
    appfn:displayDescription={display_description} />
"""


def app_metadata_xml(description: str, display_description: str) -> str:
    """res/xml/app_metadata.xml text: what agents read about the app, and what people see."""
    return _APP_METADATA.format(description=quoteattr(description), display_description=quoteattr(display_description))
