"""Property tests: whatever a hostile app or client sends, each input is accepted or refused
with a clear error, and nothing else happens.

- the manifest parser, through a whole install: generated manifests give a package or an
  InstallError naming the reason (the function-XML parser has its own generated and mutated
  documents in tests/unit/xml/test_function_xml.py);
- the data decoder (droid.binder.wire): random bytes and generated protobuf documents give an
  AppFunctionData or a MalformedDataError, and exactly the well-formed ones are accepted;
- the declaration codec: generated parameters for every sample app function give arguments
  or ERROR_INVALID_ARGUMENT;
- a device process answers every generated request body and keeps serving.
"""

from __future__ import annotations

import shutil

import grpc
import pytest
from google.protobuf.message import DecodeError
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from lxml import etree

from droid.appfunctions.analysis import analyze
from droid.appfunctions.codec import decode_arguments
from droid.appfunctions.data import AppFunctionData
from droid.appfunctions.exceptions import AppFunctionException, AppFunctionInvalidArgumentException
from droid.appfunctions.loader import load_app_service_class
from droid.appfunctions.requests import ExecuteAppFunctionRequest
from droid.appfunctions.typeref import Kind, TypeSpec
from droid.binder import wire
from droid.binder.channel import open_channel
from droidsim.v1 import app_function_manager_pb2 as afm_pb2
from droidsim.v1 import data_pb2
from sim.device import Device
from sim.limits import CallLimits, shape_violation
from sim.pm.install_error import InstallError
from sim.pm.manifest import parse_manifest
from tests.faults.conftest import DEADLINE, FAULTY, FAULTY_APP, execute, shell
from tests.faults.test_hostile_clients import EXECUTE, credential
from tests.helpers import HELPER_PACKAGE, SAMPLE_APPS

QUICK = settings(max_examples=150, deadline=None)
SLOW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

# ---------------------------------------------------------------- manifests, through install
ANDROID = "http://schemas.android.com/apk/res/android"
TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=10)
ATTRIBUTE_VALUES = st.sampled_from([
    "com.example.faulty.FaultyFunctionService", ".FaultyFunctionService", "android.permission.BIND_APP_FUNCTION_SERVICE",
    "android.app.appfunctions.AppFunctionService", "android.app.appfunctions.v2", "app_functions_v2.xml",
    "android.app.appfunctions.app_metadata", "@xml/app_metadata", "@xml/missing", "true", "false", "normal",
    "dangerous", "signature|privileged", "bogus|", "android.permission.READ_CONTACTS", "com.example.fuzz.P",
]) | TEXT
ATTRIBUTES = st.dictionaries(
    st.sampled_from([f"{{{ANDROID}}}{a}" for a in ("name", "permission", "exported", "value", "resource", "protectionLevel")]
                    + ["package", "label"]),
    ATTRIBUTE_VALUES, max_size=3,
)
TAGS = st.sampled_from(["application", "service", "property", "intent-filter", "action", "uses-permission",
                        "permission", "activity", "meta-data"])
ELEMENTS = st.recursive(
    st.tuples(TAGS, ATTRIBUTES, st.just([])),
    lambda children: st.tuples(TAGS, ATTRIBUTES, st.lists(children, max_size=4)),
    max_leaves=12,
)
A = f"{{{ANDROID}}}"


def skeleton(package: str, permissions: list[str], service: dict, v2: str | None, metadata: str | None, action: str) -> tuple:
    """The shape of a real app's manifest, with generated values in its places."""
    service_children = [("intent-filter", {}, [("action", {f"{A}name": action}, [])])]
    if v2 is not None:
        service_children.append(("property", {f"{A}name": "android.app.appfunctions.v2", f"{A}value": v2}, []))
    application = [("service", service, service_children)]
    if metadata is not None:
        application.append(("property", {f"{A}name": "android.app.appfunctions.app_metadata", f"{A}resource": metadata}, []))
    uses = [("uses-permission", {f"{A}name": name}, []) for name in permissions]
    return package, [*uses, ("application", {}, application)]


SKELETONS = st.builds(
    skeleton,
    package=st.sampled_from(["com.example.fuzz", "com.example.faulty", "com.example.faulty", "1bad"]),
    permissions=st.lists(st.sampled_from(["android.permission.READ_CONTACTS", "android.permission.EXECUTE_APP_FUNCTIONS",
                                          "com.example.Unknown"]), max_size=2),
    service=st.fixed_dictionaries(
        {f"{A}name": st.sampled_from(["com.example.faulty.FaultyFunctionService", ".FaultyFunctionService",
                                      "com.example.faulty.Missing", "x"])},
        optional={f"{A}permission": st.sampled_from(["android.permission.BIND_APP_FUNCTION_SERVICE", "android.permission.INTERNET"]),
                  f"{A}exported": st.sampled_from(["true", "false"])},
    ),
    v2=st.sampled_from([None, "app_functions_v2.xml", "missing.xml", "../AndroidManifest.xml", "/etc/hostname"]),
    metadata=st.sampled_from([None, "@xml/app_metadata", "@xml/missing", "@string/name", "@xml/../../x"]),
    action=st.sampled_from(["android.app.appfunctions.AppFunctionService", "android.intent.action.MAIN"]),
)
MANIFESTS = SKELETONS | SKELETONS | st.tuples(
    st.sampled_from(["com.example.fuzz", "com.example.faulty", "", "1bad", "nodots"]) | TEXT, st.lists(ELEMENTS, max_size=4)
)


def manifest_bytes(package: str, children: list) -> bytes:
    root = etree.Element("manifest", nsmap={"android": ANDROID})
    root.set("package", package)

    def add(parent: etree._Element, element: tuple) -> None:
        tag, attributes, grandchildren = element
        child = etree.SubElement(parent, tag)
        for name, value in attributes.items():
            child.set(name, value)
        for grandchild in grandchildren:
            add(child, grandchild)

    for child in children:
        add(root, child)
    return etree.tostring(root, xml_declaration=True, encoding="utf-8")


@SLOW
@given(manifest=MANIFESTS)
def test_a_generated_manifest_installs_or_is_refused_with_a_reason(tmp_path, manifest):
    app = tmp_path / "app"
    shutil.rmtree(app, ignore_errors=True)
    shutil.copytree(FAULTY_APP, app)
    (app / "AndroidManifest.xml").write_bytes(manifest_bytes(*manifest))
    with Device(tmp_path / "data", isolated_apps=False) as device:
        try:
            package = device.install(app)
        except InstallError as error:
            assert str(error).startswith(f"{error.reason}: ") and error.reason.startswith("INSTALL_")
            event(error.reason)
            return
        event("installed")
        assert device.registry.get(package.package_name) == package
        assert parse_manifest(app / "AndroidManifest.xml").package == package.package_name


# ---------------------------------------------------------------- the data decoder
NAMES = st.sampled_from(["a", "b", "c", ""])
VALUES = {
    "longs": st.integers(-(2**63), 2**63 - 1),
    "doubles": st.floats(allow_nan=False),
    "booleans": st.booleans(),
    "strings": st.text(max_size=4),
    "bytes_values": st.binary(max_size=4),
}
SCALAR_PROPERTIES = st.one_of(
    *[st.tuples(NAMES, st.booleans(), st.just(kind), st.lists(values, max_size=3)) for kind, values in VALUES.items()],
    st.tuples(NAMES, st.booleans(), st.sampled_from(["null", "unset"]), st.just([])),
)


def make_document(properties: list[tuple]) -> data_pb2.AppFunctionData:
    message = data_pb2.AppFunctionData()
    for name, repeated, kind, values in properties:
        prop = message.properties.add(name=name, repeated=repeated)
        if kind == "null":
            prop.null_value = True
        elif kind != "unset":
            getattr(prop, kind).SetInParent()
            getattr(prop, kind).values.extend(values)
    return message


DOCUMENTS = st.recursive(
    st.lists(SCALAR_PROPERTIES, max_size=4).map(make_document),
    lambda documents: st.lists(
        SCALAR_PROPERTIES | st.tuples(NAMES, st.booleans(), st.just("documents"), st.lists(documents, max_size=3)),
        max_size=4,
    ).map(make_document),
    max_leaves=10,
)


def well_formed(message: data_pb2.AppFunctionData) -> bool:
    """The decoder's contract, stated independently: names are unique, a single value is one."""
    names = [p.name for p in message.properties]
    if len(names) != len(set(names)):
        return False
    for prop in message.properties:
        which = prop.WhichOneof("values")
        if which in (None, "null_value"):
            continue
        items = getattr(prop, which).values
        if not prop.repeated and len(items) != 1:
            return False
        if which == "documents" and not all(well_formed(item) for item in items):
            return False
    return True


@QUICK
@given(message=DOCUMENTS)
def test_the_decoder_accepts_exactly_the_well_formed_documents(message):
    try:
        data = wire.data_from_proto(message)
    except wire.MalformedDataError as error:
        assert not well_formed(message), f"refused a well-formed document: {error}"
        assert error.problem.startswith("property ")
        event("refused")
        return
    event("accepted")
    assert well_formed(message)
    assert wire.data_from_proto(wire.data_to_proto(data)) == data


SMALL_LIMITS = st.builds(CallLimits, max_depth=st.integers(1, 4), max_list_length=st.integers(1, 4),
                         max_string_length=st.integers(1, 4))


@QUICK
@given(message=DOCUMENTS, limits=SMALL_LIMITS)
def test_a_document_kept_encoded_is_checked_as_the_decoded_one(message, limits):
    """What the device does with a remote call's documents (check, forward, never decode)
    refuses exactly what decoding refuses, with the same error, and the same limits apply."""
    try:
        decoded = wire.data_from_proto(message)
    except wire.MalformedDataError as error:
        with pytest.raises(wire.MalformedDataError) as kept:
            wire.EncodedData(message)
        assert str(kept.value) == str(error)
        return
    encoded = wire.EncodedData(message)
    assert wire.data_to_proto(encoded) == message
    fresh = wire.EncodedData(message)  # its limits checked before anything decoded it
    verdicts = [shape_violation(doc, limits, "parameters") for doc in (decoded, fresh)]
    assert [v and v.error_message for v in verdicts] == [verdicts[0] and verdicts[0].error_message] * 2
    assert encoded == decoded and dict(encoded) == dict(decoded)


VALID_REQUEST = wire.request_to_proto(ExecuteAppFunctionRequest(
    FAULTY, "echo", AppFunctionData(text="x", n=[1, 2], d=AppFunctionData(b=b"\x00"))
)).SerializeToString()


@QUICK
@given(raw=st.binary(max_size=120) | st.lists(st.tuples(st.integers(0, len(VALID_REQUEST) - 1), st.integers(0, 255)),
                                              min_size=1, max_size=4).map(lambda flips: _flip(VALID_REQUEST, flips)))
def test_random_and_corrupted_bytes_decode_or_are_refused(raw):
    try:
        message = afm_pb2.ExecuteAppFunctionRequest.FromString(raw)
    except DecodeError:
        return
    try:
        request = wire.request_from_proto(message)
    except wire.MalformedDataError:
        return
    assert isinstance(request.parameters, AppFunctionData)


def _flip(data: bytes, flips: list[tuple[int, int]]) -> bytes:
    corrupted = bytearray(data)
    for position, value in flips:
        corrupted[position] = value
    return bytes(corrupted)


# ---------------------------------------------------------------- the declaration codec
def sample_functions() -> list:
    functions = []
    for manifest_path in sorted(SAMPLE_APPS.glob("*/AndroidManifest.xml")):
        for service in parse_manifest(manifest_path).services:
            if service.is_app_function_service:
                functions.extend(analyze(load_app_service_class(manifest_path.parent, service.name)).functions)
    return functions


FUNCTIONS = {function.id: function for function in sample_functions()}
ANY_VALUE = st.one_of(st.booleans(), st.integers(-(2**70), 2**70), st.floats(), st.text(max_size=6), st.binary(max_size=4),
                      st.lists(st.integers(-5, 5), max_size=3), st.builds(AppFunctionData))


def storable(items: list) -> bool:
    """A list AppFunctionData takes: one kind of value, no nulls, no lists in lists."""
    try:
        AppFunctionData(items=items)
    except TypeError:
        return False
    return True


def value_for(spec: TypeSpec, noisy: bool, depth: int = 0) -> st.SearchStrategy:
    """A value of the declared type; when ``noisy``, sometimes null or any other value."""
    kind = spec.kind
    if kind in (Kind.LONG, Kind.INT):
        right = st.integers(-(2**64), 2**64) | (st.sampled_from(spec.int_enum) if spec.int_enum else st.integers(-3, 3))
    elif kind in (Kind.DOUBLE, Kind.FLOAT):
        right = st.floats()
    elif kind is Kind.BOOLEAN:
        right = st.booleans()
    elif kind is Kind.STRING:
        enum = spec.string_constraint.enum_values if spec.string_constraint else ()
        right = (st.sampled_from(enum) if enum else st.nothing()) | st.text(max_size=12) | st.sampled_from(["content://a/b", "http://x"])
    elif kind is Kind.BYTES:
        right = st.binary(max_size=6)
    elif kind is Kind.LIST and spec.item is not None and depth < 3:
        right = st.lists(value_for(spec.item, noisy, depth + 1), max_size=3).filter(storable)
    elif kind is Kind.OBJECT and spec.obj is not None and depth < 3:
        right = document_for(spec.obj.properties, noisy, depth + 1)
    else:
        right = st.builds(AppFunctionData)
    return st.one_of(right, st.none(), ANY_VALUE) if noisy else right


def document_for(properties: list, noisy: bool, depth: int = 0) -> st.SearchStrategy:
    """A document of declared properties: the required ones always (unless ``noisy``), an
    undeclared one only when ``noisy``."""
    values = {p.wire_name: value_for(p.type, noisy, depth) for p in properties}
    required = {} if noisy else {p.wire_name: values.pop(p.wire_name) for p in properties if p.required}
    optional = {**values, "undeclared": ANY_VALUE} if noisy else values
    return st.fixed_dictionaries(required, optional=optional).map(AppFunctionData)


def arguments_for(function) -> st.SearchStrategy:
    return document_for(function.parameters, noisy=False) | document_for(function.parameters, noisy=True)


@QUICK
@given(case=st.sampled_from(sorted(FUNCTIONS)).flatmap(lambda name: st.tuples(st.just(name), arguments_for(FUNCTIONS[name]))))
def test_generated_parameters_decode_to_arguments_or_invalid_argument(case):
    name, parameters = case
    function = FUNCTIONS[name]
    try:
        arguments = decode_arguments(function, parameters)
    except AppFunctionInvalidArgumentException as error:
        assert error.error_code == AppFunctionException.ERROR_INVALID_ARGUMENT
        assert error.error_message.startswith(("Parameter ", "Unknown parameter ")), error.error_message
        event("refused")
        return
    event("decoded")
    assert set(arguments) == {p.py_name for p in function.parameters}


# ---------------------------------------------------------------- the device, end to end
BODIES = st.one_of(
    DOCUMENTS.map(lambda d: afm_pb2.ExecuteAppFunctionRequest(
        target_package_name=FAULTY, function_identifier="echo", parameters=d).SerializeToString()),
    st.binary(max_size=64),
)


@pytest.mark.e2e
@SLOW
@given(body=BODIES)
def test_a_device_process_answers_every_request_body(fault_device, body):
    with open_channel(f"unix:{fault_device.data / 'device.sock'}") as channel:
        try:
            reply = channel.unary_unary(EXECUTE)(body, metadata=credential(fault_device), timeout=DEADLINE)
        except grpc.RpcError as error:
            assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, error.details()
            return
    result = afm_pb2.ExecuteAppFunctionResult.FromString(reply)
    if result.WhichOneof("outcome") == "error":  # a request error: malformed, unknown, out of reach
        assert result.error.error_category == AppFunctionException.ERROR_CATEGORY_REQUEST_ERROR, result.error
        assert result.error.error_message


@pytest.mark.e2e
def test_the_device_still_serves_after_the_generated_requests(fault_device):
    with shell(fault_device) as context:
        assert execute(context, HELPER_PACKAGE, "add", a=40, b=2) == 42
        assert execute(context, FAULTY, "echo", text="alive") == "alive"
    assert fault_device.process.poll() is None
