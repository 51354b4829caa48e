"""``droidsim responses skeleton`` spells the library's types as droid spells them (androidx's
``SetField<T>`` of every type, nullable or not; the java.time and Uri proxies; lists of each),
so that the double of an app with update functions installs unchanged; a function whose type it
cannot spell is a marked stub, named by the command and by install's refusal."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from droid.appfunctions import AppFunctionData, AppFunctionNotSupportedException
from droid.os import IllegalArgumentException
from sim.cli.main import cli
from sim.device import Device
from sim.responses.staging import ResponseOptions

from tests.unit.responses.test_jetpack_layouts import APKS, call

TRAVEL_APK = APKS / "travel-signed.apk"
TRAVEL = "com.example.travel"
UPDATE = "com.example.travel.bookings.BookingFunctions#updateBooking"
CHECK_IN = "com.example.travel.checkin.CheckInFunctions#checkIn"


def skeleton(app: Path, out: Path, exit_code: int = 0) -> str:
    result = CliRunner().invoke(cli, ["responses", "skeleton", str(app), str(out)])
    assert result.exit_code == exit_code, result.output
    return result.output


def test_an_update_function_is_spelled_with_droids_set_field_of_each_type(tmp_path):
    skeleton(TRAVEL_APK, tmp_path / "double")
    bookings = (tmp_path / "double" / "bookings.py").read_text()
    assert ("def updateBooking(self, booking_id: str, seat: SetField[str] | None = None, meal_preference: "
            "SetField[str | None] | None = None, return_date: SetField[date] | None = None, travellers: "
            "SetField[list[Traveller]] | None = None, checked_bags: SetField[Int32] | None = None) -> Booking:") in bookings
    assert "    booked_at: Instant\n" in bookings and "    time_zone: ZoneInfo\n" in bookings
    checkin = (tmp_path / "double" / "checkin.py").read_text()
    assert "@app_function_serializable(qualified_name='android.net.Uri')\n@dataclass\nclass AppFunctionUri:" in checkin


@pytest.mark.parametrize("sdk", [36, 37])
def test_the_travel_skeleton_installs_unchanged_on_either_sdk(tmp_path, sdk):
    skeleton(TRAVEL_APK, tmp_path / "double")
    with Device(tmp_path / "data", isolated_apps=False, sdk=sdk) as device:
        package = device.install(TRAVEL_APK, responses=ResponseOptions(double_dir=tmp_path / "double"))
        assert (CHECK_IN in {f.id for f in package.metadata.app_functions}) == (sdk == 37)
        with pytest.raises(AppFunctionNotSupportedException, match=re.escape(
                f"{UPDATE} is not implemented in this double yet: write BookingFunctions.updateBooking in bookings.py")):
            call(device, UPDATE, TRAVEL, bookingId="BK-1", seat=AppFunctionData({"value": "14C"}))


def _travel_folder(tmp_path: Path) -> Path:
    """The travel app's code-less folder, as `apk extract` writes it, for a test to change."""
    from sim.pm.apk_tools import extracted

    with extracted(TRAVEL_APK, 37) as (folder, _decoded):
        app = shutil.copytree(folder, tmp_path / "travel")
    (app / "droidsim-extract.json").unlink(missing_ok=True)
    return app


def _one_of_check_in(tmp_path: Path) -> Path:
    """The travel app with its checkIn taking a ONE_OF: a type the skeleton cannot spell."""
    app = _travel_folder(tmp_path)
    xml = app / "assets" / "check_in_functions.xml"
    text = xml.read_text()
    enum = "<enumValues>WINDOW</enumValues>"
    start, end = text.index("<dataTypeMetadata>", text.index(enum) - 200), text.index("</dataTypeMetadata>", text.index(enum))
    one_of = ("<dataTypeMetadata><oneOf><dataTypeReference>com.example.travel.checkin.BoardingPass</dataTypeReference>"
              "<id>unused</id><isNullable>false</isNullable><type>11</type></oneOf><id>unused</id>"
              "<isNullable>true</isNullable><type>14</type>")
    xml.write_text(text[:start] + one_of + text[end:])
    return app


def test_a_type_it_cannot_spell_leaves_a_marked_stub_and_names_the_function(tmp_path):
    app = _one_of_check_in(tmp_path)
    output = skeleton(app, tmp_path / "double", exit_code=1)
    assert output.splitlines()[:4] == [f"wrote {tmp_path / 'double' / name}"
                                       for name in ("__init__.py", "bookings.py", "trips.py", "checkin.py")]
    assert output.splitlines()[4:] == [
        "Error: 1 function(s) need a hand: the skeleton wrote each as a stub marked 'droidsim: write by hand', and "
        "install refuses the double until its signature is written (docs/declaring-functions.md):",
        f"  {CHECK_IN} (checkin.py): parameter seatPreference: ONE_OF (a sealed class or a union of serializables) is a type the skeleton cannot spell"]
    checkin = (tmp_path / "double" / "checkin.py").read_text()
    assert f"    # droidsim: write by hand: {CHECK_IN}: parameter seatPreference: ONE_OF" in checkin
    with Device(tmp_path / "data", isolated_apps=False) as device:
        with pytest.raises(IllegalArgumentException) as raised:
            device.install(app, responses=ResponseOptions(double_dir=tmp_path / "double"))
        assert str(raised.value) == (
            f"INSTALL_FAILED_FUNCTION_MISMATCH: {CHECK_IN}: the double's com.example.travel.checkin.CheckInFunctions "
            f"({tmp_path / 'double'}) does not implement it (the skeleton cannot write it (parameter seatPreference: "
            "ONE_OF (a sealed class or a union of serializables) is a type the skeleton cannot spell): write its signature by hand, as "
            "docs/declaring-functions.md says)")


def test_a_type_that_compiles_to_another_signature_than_the_xml_stubs_its_functions_naming_the_difference(tmp_path):
    """A java.time proxy defined with a field androidx never writes: the skeleton's `datetime`
    compiles to the proxy droid knows, so each function using it is left to write by hand."""
    app = _travel_folder(tmp_path)
    xml = app / "assets" / "check_in_functions.xml"
    text = xml.read_text()
    at = text.index("<required>", text.index("<objectQualifiedName>java.time.LocalDateTime</objectQualifiedName>"))
    xml.write_text(text[:at] + "<properties><dataTypeMetadata><id>unused</id><isNullable>false</isNullable><type>8</type>"
                   "</dataTypeMetadata><id>unused</id><name>era</name></properties>" + text[at:])
    output = skeleton(app, tmp_path / "double", exit_code=1)
    assert (f"  {CHECK_IN} (checkin.py): its types, as the skeleton spells them, compile to another signature than "
            "the XML's: the response type differs between the code and the XML: property 'boardingTime' of BoardingPass: "
            "property 'era' of LocalDateTime: only the XML has it (String)") in output.splitlines()
    assert "findHotels" not in output and "cancelBooking" not in output  # no date-time: written as usual


def test_an_int_with_enum_values_is_spelled_as_droid_declares_one(tmp_path):
    app = _travel_folder(tmp_path)
    xml = app / "assets" / "app_functions_v2.xml"
    text = xml.read_text()
    at = text.index("<type>7</type>", text.index("<name>cabin</name>"))  # maxStops, optional
    xml.write_text(text[:at] + "<enumValues>0</enumValues><enumValues>1</enumValues>" + text[at:])
    skeleton(app, tmp_path / "double")
    assert "max_stops: Annotated[Literal[0, 1], Int32] = 0" in (tmp_path / "double" / "trips.py").read_text()


@pytest.mark.parametrize("golden", ["functionWithSerializableProxyInput_app_function_dynamic_schema.xml",
                                    "functionWithGenericSerializable_app_function_dynamic_schema.xml",  # its own SetField<T>
                                    "serializableInputFunctions_app_function_dynamic_schema.xml",
                                    "fakeAllNullablePrimitiveParamsWithDefault_app_function_dynamic_schema.xml",
                                    "parcelablePrimitiveFunctions_app_function_dynamic_schema.xml"])
def test_the_androidx_compilers_own_output_gets_a_skeleton_that_installs(tmp_path, reference_dir, golden):
    app = _app_of(reference_dir, reference_dir / "androidx-compiler-output" / "xml" / golden, tmp_path / "app")
    skeleton(app, tmp_path / "double")
    with Device(tmp_path / "data", isolated_apps=False) as device:
        device.install(app, responses=ResponseOptions(double_dir=tmp_path / "double"))


def _app_of(reference: Path, xml: Path, app: Path) -> Path:
    """A code-less app whose one service serves ``xml`` (copied from the reference data for the test)."""
    (app / "assets").mkdir(parents=True)
    shutil.copy(reference / "androidx-assets" / "app_functions_schema.xsd", app / "assets")
    shutil.copy(xml, app / "assets" / xml.name)
    (app / "AndroidManifest.xml").write_text(
        '<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.testdata"><application>'
        '<service android:name="com.testdata.Service" android:exported="true" '
        'android:permission="android.permission.BIND_APP_FUNCTION_SERVICE"><intent-filter>'
        '<action android:name="android.app.appfunctions.AppFunctionService"/></intent-filter>'
        '<property android:name="android.app.appfunctions.schema" android:value="app_functions_schema.xsd"/>'
        f'<property android:name="android.app.appfunctions.v2" android:value="{xml.name}"/></service>'
        '</application></manifest>')
    return app


def test_an_update_params_object_of_library_set_fields_gets_a_skeleton_that_installs(tmp_path, reference_dir):
    """The androidx compiler's own update-parameters case (UpdateNoteParams of SetField<T>? with
    defaults, a nullable SetField parameter without one), its test-data SetField read as androidx's."""
    golden = reference_dir / "androidx-compiler-output" / "xml" / "functionWithGenericSerializable_app_function_dynamic_schema.xml"
    app = _app_of(reference_dir, golden, tmp_path / "app")
    xml = app / "assets" / golden.name
    xml.write_text(xml.read_text().replace("com.testdata.SetField", "androidx.appfunctions.schema.types.SetField"))
    skeleton(app, tmp_path / "double")
    module = (tmp_path / "double" / "testdata.py").read_text()
    assert "    nullable_attachments: SetField[list[Attachment] | None] | None = None\n" in module
    assert "def test(self, params: UpdateNoteParams, top_level_generic_param: SetField[Int32] | None) -> None:" in module
    with Device(tmp_path / "data", isolated_apps=False) as device:
        device.install(app, responses=ResponseOptions(double_dir=tmp_path / "double"))
