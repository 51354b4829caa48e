"""A code-less app's double: one Python class per ``@AppFunction`` class, whichever service serves it.

A Jetpack function id is ``<class>#<method>``, the class that declares the function. In the
default layout of a KSP build one library service (``androidx.appfunctions.service
.PlatformAppFunctionService``) serves every such class; with ``@AppFunctionServiceEntryPoint``
each class has a service of its own. Keyed on the class part of the id, one double fits both
layouts and never needs a class for the library's service. An id without ``#`` (not Jetpack's
form) falls back to the service that declares it.

The double is app code: it is checked by the device's code verifier (in a child, never in the
device) and runs in the app's own process (sim/responses/service.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from droid.appfunctions.metadata import AppFunctionMetadata, AppFunctionPackageMetadata, function_name

if TYPE_CHECKING:
    from sim.pm.code_verifier import CodeVerifier

# The service name of an application-level function, which runs no code: sim/pm/function_files.py's
# APPLICATION_LEVEL, not imported, as it would bring the manifest parser into every app process.
_APPLICATION_LEVEL = ""


def double_class(function: AppFunctionMetadata) -> str:
    """The class of the double that answers ``function``."""
    if "#" in function.id:
        return function.id.rsplit("#", 1)[0]
    return function.service_name


def functions_by_class(metadata: AppFunctionPackageMetadata) -> dict[str, list[AppFunctionMetadata]]:
    """The functions a double answers, by the class that answers each (app-level ones run no code)."""
    classes: dict[str, list[AppFunctionMetadata]] = {}
    for function in metadata.app_functions:
        if function.service_name != _APPLICATION_LEVEL:
            classes.setdefault(double_class(function), []).append(function)
    return classes


class DoubleMismatch(Exception):
    """The double cannot stand in for the app's code: ``reason`` is the install error's."""

    def __init__(self, reason: str, detail: str, function_id: str | None = None) -> None:
        super().__init__(detail)
        self.reason = reason
        self.function_id = function_id  # the function it is about, where it is about one


def check_double(
    double_dir: Path, metadata: AppFunctionPackageMetadata, verifier: CodeVerifier, shown_as: str,
    declared_elsewhere: frozenset[str] = frozenset(),
) -> None:
    """The double in ``double_dir`` against the app's XML, as install compares an app's own code
    with it: each class implements exactly the functions of its class, with the same signatures
    (descriptions are the XML's: agents read those, the double only answers). ``shown_as`` names
    the double in messages (the user's folder, not the copy checked); ``declared_elsewhere``: ids
    the app declares in files this device does not index, which a double may implement."""
    from sim.pm.code_verifier import CodeVerificationError
    from sim.pm.signature import function_signature, signature_difference

    for class_name, functions in functions_by_class(metadata).items():
        names = ", ".join(function_name(f) for f in functions)
        try:
            code = verifier.declared_code(double_dir, class_name)
        except CodeVerificationError as error:
            message = str(error).replace(str(double_dir), shown_as)
            raise DoubleMismatch("INSTALL_FAILED_BAD_CODE", f"the double's {class_name} (for {names}): {message}") from None
        if code.ids is None:  # routes at run time: it cannot say what it implements
            continue
        wanted = {f.id for f in functions}
        missing = sorted(wanted - code.ids)
        extra = sorted(code.ids - wanted - declared_elsewhere)
        if missing:
            raise DoubleMismatch("INSTALL_FAILED_FUNCTION_MISMATCH", f"{missing[0]}: the double's {class_name} "
                                 f"({shown_as}) does not implement it{_named_otherwise(missing[0], extra)}", missing[0])
        if extra:
            raise DoubleMismatch("INSTALL_FAILED_FUNCTION_MISMATCH",
                                 f"the double's {class_name} ({shown_as}) implements {extra[0]}, which "
                                 f"{metadata.package_name} does not declare")
        if code.metadata is None:
            continue
        declared = {f.id: f for f in code.metadata.app_functions}
        for function in functions:
            if not function.HasField("response"):  # v1 XML declares no signature
                continue
            difference = signature_difference(function_signature(function, metadata.components),
                                              function_signature(declared[function.id], code.metadata.components))
            if difference is not None:
                raise DoubleMismatch("INSTALL_FAILED_FUNCTION_MISMATCH",
                                     f"{function.id}: the double's {class_name} ({shown_as}) does not match the "
                                     f"app's XML: {difference}", function.id)


def _named_otherwise(wanted: str, implemented: list[str]) -> str:
    """Where the double has the function under another method name (``update_goal`` for ``updateGoal``: a
    Python habit), the rename that makes it match: the method is named as the XML's id, after the ``#``."""
    from droid.appfunctions.json_codec import close_names

    method = wanted.rsplit("#", 1)[-1]
    close = close_names(method, [i.rsplit("#", 1)[-1] for i in implemented])
    return f"; it has {close[0]}: name that method {method}, as the id after # in the XML is" if close else ""
