"""The descriptions of an app that agents read, and where a developer writes each one.

A Python app writes them in docstrings; a Kotlin app in KDoc, which KSP copies into the
function XML when the annotation asks for it (``isDescribedByKDoc = true``). A finding on a
Kotlin app points at the XML in the APK, which nobody edits, so its fix names the KDoc.
"""

from __future__ import annotations

from typing import Iterator

from sim.lint.model import App, Function, Scope, Text, TextKind

APP_DESCRIPTION_PLACE = ("appfn:description in res/xml/app_metadata.xml (referenced by the manifest's "
                         "android.app.appfunctions.app_metadata property)")
# The annotation KSP reads a function's KDoc for: @AppFunction on a class the library's service
# serves (the default layout), @AppFunctionDeclaration in an @AppFunctionServiceEntryPoint class
# (androidx AppFunctionDeclaration.kt @dc9175e: "Marks a function under AppFunctionServiceEntryPoint").
_DESCRIBED_BY_KDOC = "@AppFunction(isDescribedByKDoc = true)"
_DECLARATION_DESCRIBED_BY_KDOC = "@AppFunctionDeclaration(isDescribedByKDoc = true)"
_LIBRARY_SERVICES = ("androidx.appfunctions.service.PlatformAppFunctionService",
                     "androidx.appfunctions.service.ExtensionAppFunctionService")
_SERIALIZABLE_DESCRIBED_BY_KDOC = "@AppFunctionSerializable(isDescribedByKDoc = true)"


def described_texts(app: App) -> Iterator[tuple[Scope, Text]]:
    """Every function's description, parameter and return descriptions, and the
    description of every type and property the app defines, with their scope."""
    for function in app.functions:
        for text in function.texts():
            yield function.scope, text
    for info in app.types.values():
        if info.defined_by_app:
            for text in info.texts():
                yield info.scope, text


def where_to_write(app: App, function: Function | None, kind: TextKind, subject: str = "", *,
                   written: bool = False) -> str:
    """Where the text of ``kind`` (about ``function``, or the type or property ``subject``) is
    written, in the app's own language; for a Kotlin text not ``written`` yet, with the
    annotation that makes KSP copy it."""
    if kind == "app":
        return APP_DESCRIPTION_PLACE
    if app.kotlin:
        return _in_kotlin(function, kind, subject, written)
    if function is not None and function.code is not None:
        return {"description": "the docstring's summary", "parameter": "the docstring's Args: section",
                "return": "the docstring's Returns: section"}.get(kind, "the docstring")
    return "its <description> in the function XML"


def kotlin_function(function_id: str) -> str:
    """``sendPayment in PaymentFunctions``: the Kotlin method behind a KSP function id
    (``com.example.bank.payments.PaymentFunctions#sendPayment``)."""
    cls, _, method = function_id.rpartition("#")
    return f"{method} in {cls.rsplit('.', 1)[-1]}" if cls else function_id


def _in_kotlin(function: Function | None, kind: TextKind, subject: str, written: bool) -> str:
    if kind in ("type", "property"):
        cls, _, prop = subject.partition(".")
        where = f"property {prop} of class {cls}" if kind == "property" else f"class {cls}"
        return f"the KDoc of {where}" + ("" if written else f", with {_SERIALIZABLE_DESCRIBED_BY_KDOC}")
    method = kotlin_function(function.id) if function is not None else "the function"
    tag = {"parameter": f"`@param {subject}` in ", "return": "`@return` in "}.get(kind, "")
    entry_point = function is not None and function.service not in ("", *_LIBRARY_SERVICES)
    annotation = _DECLARATION_DESCRIBED_BY_KDOC if entry_point else _DESCRIBED_BY_KDOC
    return f"{tag}the KDoc of {method}" + ("" if written else f", with {annotation}")


def in_kotlin_too(app: App, scope: Scope, text: Text, fix: str) -> str:
    """``fix``, and for a Kotlin app where to make it: its finding points at generated XML."""
    if not app.kotlin:
        return fix
    function = next((f for f in app.functions if f.id == scope.function_id), None)
    return f"{fix} It is written in {where_to_write(app, function, text.kind, text.subject, written=True)}."

