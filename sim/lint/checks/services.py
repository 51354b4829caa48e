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
    on_android_16 = app.services if app.android16_services is None else app.android16_services
    if len(on_android_16) < 2:
        return
    first = on_android_16[0]
    for function in app.functions:
        # A service Android 16 does not index declares nothing there: no call reaches the first.
        if function.service and function.service != first and function.service in on_android_16:
            yield Issue(
                "R1", function.scope,
                f"On Android 16 every call to {app.package} binds its first AppFunctionService, {first}, "
                f"so {function.name}, declared by {function.service}, reaches a service that does not "
                f"implement it (Android 17 binds the declaring service).",
                ("Serve every @AppFunction class from one AppFunctionService (the library's "
                 "PlatformAppFunctionService does), or ship this service only to Android 17 and later "
                 "(android:enabled=\"@bool/...\" false in values/, true in values-v37)." if app.kotlin else
                 "Declare every function in one AppFunctionService, or ship this service only to Android 17 "
                 "and later (android:enabled=\"@bool/...\" false below v37)."),
            )
