"""What an app written with androidx's AppFunctions library answers, where the library (not the
platform) decides it: the dispatcher's refusal of a missing required parameter, as
AppFunctionDataParameterExtractor.kt @ab68ffc3 words it. droidsim's declaration layer is that
library's analogue (tests/conformance/apps/jetpack)."""

from __future__ import annotations

from droid.appfunctions.exceptions import AppFunctionException
from sim.conformance.cases.common import execute
from sim.conformance.expect import fails_with, returns
from sim.conformance.registry import Mismatch, case

JETPACK_APP = "jetpack"
ORDER_STATUS = "android.app.appfunctions.cts.jetpack.OrderLookupService#order_status"
PACKAGE = "android.app.appfunctions.cts.jetpack"
STRING_TYPE = "AppFunctionStringTypeMetadata(isNullable=false, description=, patternMatchers=null, format=null, enumValues=null)"


@case("jetpack-missing-required-parameter", "jetpack.missing-parameter")
def jetpack_missing_required_parameter(t) -> None:
    """A call without the required orderId is ERROR_INVALID_ARGUMENT "Parameter orderId should be
    the type of AppFunctionStringTypeMetadata(...)" (unsafeGetParameterValue rethrows its
    require's failure so); droidsim's own words may follow on a second line."""
    with t.installed_variant(JETPACK_APP, {}) as installed:
        if isinstance(installed, Exception):
            raise Mismatch("the app to install", f"{type(installed).__name__}: {installed}")
        error = fails_with(execute(t.shell, PACKAGE, ORDER_STATUS), AppFunctionException.ERROR_INVALID_ARGUMENT)
        first_line = (error.error_message or "").split("\n", 1)[0]
        if first_line != f"Parameter orderId should be the type of {STRING_TYPE}":
            raise Mismatch(f"the message's first line to be androidx's: Parameter orderId should be the type of "
                           f"{STRING_TYPE}", repr(error.error_message))
        returns(execute(t.shell, PACKAGE, ORDER_STATUS, orderId="ORD-8492"), "ORD-8492: SHIPPED")
