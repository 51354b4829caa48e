"""A Kotlin developer's project the docs never saw: a travel app built with aapt2 as Gradle + KSP
build one (the library's PlatformAppFunctionService serving two @AppFunction classes, enabled by
an @bool/ with a values-v36 override, AndroidX core's signature permission), its cassette, and
the developer's own pytest file written only from docs/testing.md ("Your Kotlin app", "The SDK").

``write_project(root)`` writes it and returns the project folder; tests run its suite with
droidsim installed from this checkout (tests/e2e/test_kotlin_project.py) and from a wheel in a
fresh venv (tests/e2e/test_user_project.py)."""

from __future__ import annotations

from pathlib import Path

from droid.appfunctions.assets import APP_FUNCTIONS_SCHEMA
from tests.apks.build import build_unsigned, missing_tools, sign

PACKAGE = "com.acme.trips"
APK = "app/build/outputs/apk/debug/app-debug.apk"
TESTS_PASSING = 7  # the suite below: 6 tests, one of them on two SDKs
# What the suite uses, each of which docs/testing.md must teach.
TAUGHT = ("droid_device.install(", "responses=", "droid_device.call(", ".types.", "datetime.date",
          "raised.value.error_code", "NoAnswerError", ".function_id", ".parameters", "set_enabled(",
          "is_enabled(", "AppFunctionDisabledException", "@pytest.mark.droid_sdk(36, 37)")

MANIFEST = f"""\
<?xml version="1.0" encoding="utf-8"?>
<manifest xmlns:android="http://schemas.android.com/apk/res/android"
    package="{PACKAGE}" android:versionCode="3" android:versionName="0.3.0">
    <uses-permission android:name="android.permission.INTERNET" />
    <permission android:name="{PACKAGE}.DYNAMIC_RECEIVER_NOT_EXPORTED_PERMISSION"
        android:protectionLevel="signature" />
    <uses-permission android:name="{PACKAGE}.DYNAMIC_RECEIVER_NOT_EXPORTED_PERMISSION" />
    <application android:label="@string/app_name">
        <property android:name="android.app.appfunctions.app_metadata" android:resource="@xml/app_metadata" />
        <activity android:name="{PACKAGE}.MainActivity" android:exported="true">
            <intent-filter>
                <action android:name="android.intent.action.MAIN" />
                <category android:name="android.intent.category.LAUNCHER" />
            </intent-filter>
        </activity>
        <service android:name="androidx.appfunctions.service.PlatformAppFunctionService"
            android:enabled="@bool/enablePlatformAppFunctionService" android:exported="true"
            android:permission="android.permission.BIND_APP_FUNCTION_SERVICE">
            <intent-filter>
                <action android:name="android.app.appfunctions.AppFunctionService" />
            </intent-filter>
            <property android:name="android.app.appfunctions.schema" android:value="app_functions_schema.xsd" />
            <property android:name="android.app.appfunctions.v2" android:value="app_functions_v2.xml" />
        </service>
    </application>
</manifest>
"""

VALUES = """\
<?xml version="1.0" encoding="utf-8"?>
<resources>
    <string name="app_name">Acme Trips</string>
    <bool name="enablePlatformAppFunctionService">false</bool>
    <attr name="description" format="string" />
</resources>
"""
VALUES_V36 = """\
<?xml version="1.0" encoding="utf-8"?>
<resources>
    <bool name="enablePlatformAppFunctionService">true</bool>
</resources>
"""
APP_METADATA = """\
<?xml version="1.0" encoding="utf-8"?>
<AppFunctionAppMetadata xmlns:appfn="http://schemas.android.com/apk/res-auto"
    appfn:description="Acme Trips: find and book train trips across Europe." />
"""


def _type(kind: int, *, reference: str = "", nullable: bool = False, item: str = "", enum: tuple[str, ...] = (),
          description: str = "", tag: str = "dataTypeMetadata") -> str:
    """One data type as KSP writes it in the v2 XML."""
    parts = [f"<dataTypeReference>{reference}</dataTypeReference>" if reference else "", "<id>unused</id>",
             f"<isNullable>{str(nullable).lower()}</isNullable>", item,
             *(f"<enumValues>{value}</enumValues>" for value in enum),
             f"<description>{description}</description>" if description else "", f"<type>{kind}</type>"]
    return f"<{tag}>{''.join(parts)}</{tag}>"


def _parameter(name: str, data_type: str, description: str, required: bool = True) -> str:
    return (f"<parameters>{data_type}<id>unused</id><isRequired>{str(required).lower()}</isRequired>"
            f"<name>{name}</name><description>{description}</description></parameters>")


def _function(function_id: str, description: str, parameters: list[str], response: str, returns: str) -> str:
    return (f"<appfunction><id>{function_id}</id><enabledByDefault>true</enabledByDefault>"
            f"<description>{description}</description>{''.join(parameters)}"
            f"<response><id>unused</id>{response}<description>{returns}</description></response>"
            f"<functionId>{function_id}</functionId></appfunction>")


def _object(name: str, properties: list[tuple[str, str]], tag: str = "dataTypes") -> str:
    listed = "".join(f"<properties>{data_type}<id>unused</id><name>{prop}</name></properties>" for prop, data_type in properties)
    required = "".join(f"<required>{prop}</required>" for prop, _ in properties)
    return (f"<{tag}><dataTypeMetadata><id>unused</id><isNullable>true</isNullable><objectQualifiedName>{name}"
            f"</objectQualifiedName>{listed}{required}<type>3</type></dataTypeMetadata><id>unused</id>"
            f"<name>{name}</name></{tag}>")


STRING, INT, DOUBLE, BOOLEAN, REFERENCE, ARRAY = 8, 7, 4, 1, 11, 10
SEARCH, BOOKING = "com.acme.trips.search.TripFunctions", "com.acme.trips.booking.BookingFunctions"
DATE = _type(REFERENCE, reference="java.time.LocalDate")
FUNCTIONS = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<appfunctions>
{_function(f"{SEARCH}#findTrips", "Finds the train trips to a city on a day, cheapest first.", [
    _parameter("destination", _type(STRING), "The city to travel to, for example Lisbon."),
    _parameter("departure", DATE, "The day of departure."),
    _parameter("maxResults", _type(INT), "How many trips to return, at most 20.", required=False),
], _type(REFERENCE, reference="com.acme.trips.search.TripList", tag="valueType"), "The trips found.")}
{_function(f"{BOOKING}#bookTrip", "Books seats on a trip and charges the saved card.", [
    _parameter("tripId", _type(STRING), "The trip, for example TRIP-7."),
    _parameter("seats", _type(INT), "How many seats to book."),
    _parameter("travelClass", _type(STRING, enum=("SECOND", "FIRST")), "The class to travel in."),
], _type(STRING, tag="valueType"), "The booking's reference, for example BK-1.")}
{_function(f"{BOOKING}#cancelBooking", "Cancels a booking and refunds it to the card.", [
    _parameter("bookingRef", _type(STRING), "The booking's reference, for example BK-1."),
], _type(BOOLEAN, tag="valueType"), "Whether the booking was cancelled.")}
<AppFunctionComponentMetadataDocument>
{_object("com.acme.trips.search.Trip", [
    ("tripId", _type(STRING, description="The trip's identifier.")),
    ("departure", _type(REFERENCE, reference="java.time.LocalDate", description="The day it leaves.")),
    ("priceEur", _type(DOUBLE, description="The price of one seat, in euros.")),
])}
{_object("com.acme.trips.search.TripList", [
    ("trips", _type(ARRAY, item=_type(REFERENCE, reference="com.acme.trips.search.Trip", tag="itemType"),
                    description="The trips, cheapest first.")),
])}
{_object("java.time.LocalDate", [("year", _type(INT)), ("month", _type(INT)), ("dayOfMonth", _type(INT))])}
<id>unused</id>
</AppFunctionComponentMetadataDocument>
</appfunctions>
"""

CASSETTE = f"""\
package: {PACKAGE}
calls:
  findTrips:
    - parameters: {{destination: Lisbon, departure: 2026-05-01}}
      response:
        trips:
          - {{tripId: TRIP-7, departure: 2026-05-01, priceEur: 189}}
  bookTrip:
    - parameters: {{tripId: TRIP-7, seats: 2, travelClass: SECOND}}
      response: BK-1
    - parameters: {{tripId: TRIP-0, seats: 1, travelClass: FIRST}}
      error: {{code: ERROR_RESOURCE_NOT_FOUND, message: No trip TRIP-0}}
  cancelBooking:
    - parameters: {{bookingRef: BK-1}}
      response: true
"""

# The developer's tests: only what docs/testing.md shows (TAUGHT), on their own app.
TESTS = f'''\
import datetime

import pytest

from droid.appfunctions import AppFunctionDisabledException, AppFunctionElementNotFoundException
from sim.testing import NoAnswerError

APK = "{APK}"
CASSETTE = "app/src/test/trips.cassette.yaml"


@pytest.fixture
def trips(droid_device):
    return droid_device.install(APK, responses=CASSETTE)


def test_trips_to_lisbon(droid_device, trips):
    found = droid_device.call("findTrips", destination="Lisbon", departure=datetime.date(2026, 5, 1))
    assert found.trips == [trips.types.Trip(tripId="TRIP-7", departure=datetime.date(2026, 5, 1), priceEur=189.0)]


def test_booking_by_full_id(droid_device, trips):
    assert droid_device.call("{BOOKING}#bookTrip", tripId="TRIP-7", seats=2, travelClass="SECOND") == "BK-1"


def test_an_unknown_trip(droid_device, trips):
    with pytest.raises(AppFunctionElementNotFoundException) as raised:
        droid_device.call("bookTrip", tripId="TRIP-0", seats=1, travelClass="FIRST")
    assert raised.value.error_code == raised.value.ERROR_RESOURCE_NOT_FOUND


def test_a_booking_i_did_not_record(droid_device, trips):
    with pytest.raises(NoAnswerError) as raised:
        droid_device.call("bookTrip", tripId="TRIP-7", seats=3, travelClass="FIRST")
    assert raised.value.function_id == "{BOOKING}#bookTrip"
    assert raised.value.parameters == {{"tripId": "TRIP-7", "seats": 3, "travelClass": "FIRST"}}


def test_cancelling_switched_off(droid_device, trips):
    droid_device.set_enabled("cancelBooking", False)
    assert not droid_device.is_enabled("cancelBooking")
    with pytest.raises(AppFunctionDisabledException):
        droid_device.call("cancelBooking", bookingRef="BK-1")


@pytest.mark.droid_sdk(36, 37)
def test_cancelling_on_android_16_and_17(droid_device, trips):
    assert droid_device.call("cancelBooking", bookingRef="BK-1") is True
'''


def cannot_build() -> str | None:
    """Why this machine cannot build the APK (a reason to skip), None when it can."""
    missing = missing_tools()
    return f"building an APK needs {', '.join(missing)} (Debian: aapt, zipalign, apksigner, android-framework-res)" \
        if missing else None


def write_project(root: Path) -> Path:
    """The project under ``root``, its APK built (unsigned, then signed with the test key)."""
    project = root / "trips"
    sources = project / "app" / "src" / "main"
    files = {
        sources / "AndroidManifest.xml": MANIFEST,
        sources / "res" / "values" / "values.xml": VALUES,
        sources / "res" / "values-v36" / "values.xml": VALUES_V36,
        sources / "res" / "xml" / "app_metadata.xml": APP_METADATA,
        sources / "assets" / "app_functions_v2.xml": FUNCTIONS,
        # What the androidx.appfunctions library merges into every APK (droid ships the same).
        sources / "assets" / "app_functions_schema.xsd": APP_FUNCTIONS_SCHEMA.read_text(),
        project / "app" / "src" / "test" / "trips.cassette.yaml": CASSETTE,
        project / "tests" / "test_trips.py": TESTS,
        project / "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
    }
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    apk = project / APK
    apk.parent.mkdir(parents=True)
    build_unsigned(sources, apk.with_name("app-debug-unsigned.apk"))
    sign(apk.with_name("app-debug-unsigned.apk"), "test", apk)
    return project
