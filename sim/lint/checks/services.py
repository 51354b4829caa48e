"""Which functions an Android 16 phone finds, and which service a call reaches (R1).

Android 16 indexes one AppFunctionService per package, the last queryIntentServices lists
(AppSearch branch 16-qpr2, AppsUtil.getPackagesToIndex), and binds the first for every call
(ServiceHelperImpl.resolveAppFunctionService(packageName, user)). So in a package with two or
more, the functions of every service but the last are not found there, and the last one's reach
the first, which does not implement them. Android 17 indexes every service and binds the one
that declared the function, as ``--sdk 37`` does.
"""

from __future__ import annotations

from typing import Iterator

from sim.lint.findings import Issue
from sim.lint.model import App
from sim.pm.function_files import ONE_SERVICE_FIX


def _fix(app: App) -> str:
    if app.kotlin:
        return ("Serve every @AppFunction class from one AppFunctionService (the library's PlatformAppFunctionService "
                'does), or ship the others to Android 17 and later only (android:enabled="@bool/..." false in '
                "values/, true in values-v37/).")
    return ONE_SERVICE_FIX


def check_services(app: App) -> Iterator[Issue]:
    on_android_16 = app.services if app.android16_services is None else [
        s for s in app.services if s in app.android16_services]
    if len(on_android_16) < 2:
        return
    first, indexed = on_android_16[0], on_android_16[-1]
    for function in app.functions:
        if not function.service or function.service not in on_android_16:
            continue  # a service Android 16 does not list declares nothing there
        if function.service != indexed:
            yield Issue(
                "R1", function.scope,
                f"Android 16 indexes only the last AppFunctionService of {app.package}, {indexed}, so "
                f"{function.name}, declared by {function.service}, is not found there (ERROR_FUNCTION_NOT_FOUND).",
                _fix(app),
            )
        elif indexed != first:
            yield Issue(
                "R1", function.scope,
                f"On Android 16 every call to {app.package} binds its first AppFunctionService, {first}, so "
                f"{function.name}, declared by {function.service}, reaches a service that does not implement it "
                f"(Android 17 binds the declaring service).",
                _fix(app),
            )
