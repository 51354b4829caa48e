"""How an error code becomes a Jetpack exception class, and what crosses the binder (issue 16
rows 13 and 14)."""

from __future__ import annotations

from droid.appfunctions.exceptions import AppFunctionException, AppFunctionUnknownException
from droid.binder import wire


def test_enterprise_policy_disallowed_is_an_unknown_exception_to_jetpack():
    """AppFunctionException.fromPlatformClass has no case for 2002: it keeps the code in an
    AppFunctionUnknownException."""
    error = AppFunctionException(AppFunctionException.ERROR_ENTERPRISE_POLICY_DISALLOWED, "policy")
    assert type(error) is AppFunctionUnknownException
    assert (error.error_code, error.error_category, error.error_name) == (
        2002, AppFunctionException.ERROR_CATEGORY_SYSTEM, "ERROR_ENTERPRISE_POLICY_DISALLOWED")


def test_a_null_message_stays_null_across_the_binder():
    """CTS AppFunctionExceptionTest.testParcel_nullErrorMessage; an empty message stays empty."""
    for message in (None, ""):
        sent = AppFunctionException(AppFunctionException.ERROR_CANCELLED, message)
        came = wire.result_from_proto(wire.result_to_proto(sent))
        assert (came.error_code, came.error_message, came.extras) == (2001, message, {})
