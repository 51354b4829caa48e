"""ExecuteAppFunctionRequestTest / ResponseTest / ExceptionTest: what Parcel round-trips check on
Android, checked on droidsim's binder wire (the protobuf every cross-process call travels in)."""

from __future__ import annotations

from droid.app.pending_intent import ComponentName, Intent, PendingIntent
from droid.appfunctions.data import AppFunctionData
from droid.appfunctions.exceptions import AppFunctionException, category_of
from droid.appfunctions.requests import ExecuteAppFunctionRequest, ExecuteAppFunctionResponse
from droid.binder import wire
from droid.os.exceptions import IllegalArgumentException
from sim.conformance.expect import attempt, equal, raises
from sim.conformance.registry import case

ERROR_CODES = sorted(
    value for name, value in vars(AppFunctionException).items()
    if name.startswith("ERROR_") and not name.startswith("ERROR_CATEGORY_")
)


@case("parcel-round-trips", "parcel")
def parcel_round_trips(t) -> None:
    """Requests, responses and every AppFunctionException cross the wire unchanged, the empty
    defaults included."""
    nested = AppFunctionData({"n": [1, 2]}, qualified_name="com.example.Nested", id="n1")
    for request in (
        ExecuteAppFunctionRequest("com.example.target", "f"),
        ExecuteAppFunctionRequest(
            "com.example.target", "f",
            AppFunctionData(long=7, double=0.5, flag=True, text="é", blob=b"\x00\xff", doc=nested, none=None),
            AppFunctionData(extra="x"),
        ),
    ):
        equal("the request after the wire", request, wire.request_from_proto(wire.request_to_proto(request)))
    for response in (ExecuteAppFunctionResponse.of(None), ExecuteAppFunctionResponse(AppFunctionData(r=[nested]), AppFunctionData(k=1))):
        equal("the response after the wire", response, wire.result_from_proto(wire.result_to_proto(response)))
    for code in ERROR_CODES:
        sent = AppFunctionException(code, f"message {code}", extras={"key": "value"})
        came = wire.result_from_proto(wire.result_to_proto(sent))
        equal(
            f"error {code} after the wire",
            (type(sent), code, category_of(code), f"message {code}", {"key": "value"}, f"message {code} (code {code})"),
            (type(came), came.error_code, came.error_category, came.error_message, came.extras, str(came)),
        )


@case("parcel-null-error-message", "parcel.null-message")
def parcel_null_error_message(t) -> None:
    """AppFunctionExceptionTest.testParcel_nullErrorMessage: a null message stays null, and
    getMessage() prints it as Java does, "null (code 2001)" (QPR2's AppFunctionException)."""
    came = wire.result_from_proto(wire.result_to_proto(AppFunctionException(AppFunctionException.ERROR_CANCELLED, None)))
    equal("the code, message, extras and text after the wire", (2001, None, {}, "null (code 2001)"),
          (came.error_code, came.error_message, came.extras, str(came)))


@case("pending-intent-mutability-rules", "pending-intent")
def pending_intent_mutability_rules(t) -> None:
    """An immutable implicit and a mutable explicit PendingIntent are created; a mutable implicit
    one, and one with both or neither mutability flag, raise IllegalArgumentException."""
    explicit = Intent(component=ComponentName(t.caller.package_name, "android.app.appfunctions.cts.Main"))
    implicit = Intent(action="android.intent.action.VIEW")
    created = [PendingIntent.get_activity(t.caller, 0, implicit, PendingIntent.FLAG_IMMUTABLE).is_immutable,
               PendingIntent.get_activity(t.caller, 0, explicit, PendingIntent.FLAG_MUTABLE).is_immutable]
    equal("the immutability of the two created", [True, False], created)
    for intent, flags in ((implicit, PendingIntent.FLAG_MUTABLE), (explicit, PendingIntent.FLAG_MUTABLE | PendingIntent.FLAG_IMMUTABLE),
                          (explicit, 0)):
        raises(attempt(lambda: PendingIntent.get_activity(t.caller, 0, intent, flags)), IllegalArgumentException)
