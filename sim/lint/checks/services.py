"""Which service a call reaches (R1): before Android 17 the platform binds one
AppFunctionService per package.

ServiceHelperImpl.resolveAppFunctionService(packageName, user) on Android 16 resolves the
package's first AppFunctionService, whichever declared the function; Android 17 binds the
declaring one. So a function declared by any other service works on an Android 17 phone (and
on ``--sdk 37``) and, on an Android 16 phone, reaches a service that does not implement it.
"""

from __future__ import annotations

from typing import Iterator

from sim.lint.findings import Issue
from sim.lint.model import App


def check_services(app: App) -> Iterator[Issue]:
    if len(app.services) < 2:
        return
    first = app.services[0]
    for function in app.functions:
        if function.service and function.service != first:
            yield Issue(
                "R1", function.scope,
                f"On Android 16 every call to {app.package} binds its first AppFunctionService, {first}, "
                f"so {function.name}, declared by {function.service}, reaches a service that does not "
                f"implement it (Android 17 binds the declaring service).",
                "Declare every function in one AppFunctionService, or ship this service only to Android 17 "
                "and later (android:enabled=\"@bool/...\" false below v37).",
            )
