"""Docstrings in three styles, instructions, access levels, schemas, deprecation and the
small platform types (Uri, PendingIntent) the declarations use."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from droid.app import ComponentName, Intent, PendingIntent
from droid.appfunctions import (
    ACCESS_LEVEL_ANDROID_TRUSTED,
    ACCESS_LEVEL_SELF,
    AppFunctionCompileError,
    AppFunctionServiceEntryPoint,
    app_function,
    app_function_access_level,
    app_function_instruction,
    app_function_schema_definition,
    app_function_serializable,
    deprecated,
)
from droid.appfunctions.compiler import build_metadata
from droid.net import Uri
from droid.os import IllegalArgumentException


class Documented(AppFunctionServiceEntryPoint):
    service_name = "com.example.docs.Documented"
    xml_file_name = "docs"

    @app_function(described_by_docstring=True)
    def google(self, order_id: str, count: int = 0) -> str:
        """Fetches an order.

        Looks in the archive too.

        Args:
            order_id: The order identifier,
                for example ORD-8492.
            count (int): How many.

        Returns:
            The order's summary.
        """
        return order_id

    @app_function(described_by_docstring=True)
    def rest(self, order_id: str) -> str:
        """Fetches an order.

        :param order_id: The order identifier,
            for example ORD-8492.
        :returns: The order's summary.
        """
        return order_id

    @app_function(described_by_docstring=True)
    def numpy(self, order_id: str) -> str:
        """Fetches an order.

        Parameters
        ----------
        order_id : str
            The order identifier,
            for example ORD-8492.

        Returns
        -------
        str
            The order's summary.
        """
        return order_id

    @app_function
    def undescribed(self, order_id: str) -> str:
        """Has a docstring that is not used.

        Args:
            order_id: Not used either.
        """
        return order_id

    @app_function(described_by_docstring=True, enabled=False)
    @app_function_instruction("Instruction wins.")
    def instructed(self) -> None:
        """Docstring loses."""


# Module level: with postponed annotations, hints are resolved in module globals.
@app_function_serializable(described_by_docstring=True)
@dataclass
class Described:
    """A described class.

    Attributes:
        name: Its name.
    """

    name: str


@app_function_serializable
@dataclass
class Undescribed:
    """Not used."""

    name: str


@app_function_instruction("From the instruction.")
@app_function_serializable
@dataclass
class Instructed:
    name: str


def functions():
    return {f.id.rsplit("#", 1)[1]: f for f in build_metadata(Documented)[0]}


@pytest.mark.parametrize("style", ["google", "rest", "numpy"])
def test_docstring_styles_fill_descriptions(style):
    fn = functions()[style]
    assert fn.description.startswith("Fetches an order.")
    assert fn.parameters[0].description == "The order identifier, for example ORD-8492."
    assert fn.response.description == "The order's summary."


def test_google_keeps_paragraphs_and_reads_typed_args():
    fn = functions()["google"]
    assert fn.description == "Fetches an order.\n\nLooks in the archive too."
    assert fn.parameters[1].description == "How many."


def test_without_described_by_docstring_nothing_is_taken_from_it():
    fn = functions()["undescribed"]
    assert fn.description == "" and fn.parameters[0].description == ""


def test_instruction_overrides_the_docstring_and_enabled_false_is_written():
    fn = functions()["instructed"]
    assert fn.description == "Instruction wins."
    assert fn.enabled_by_default is False


def test_serializable_class_docs_and_instruction():
    class Svc(AppFunctionServiceEntryPoint):
        service_name = "com.example.docs.Svc"
        xml_file_name = "svc"

        @app_function
        def f(self, a: Described, b: Undescribed, c: Instructed) -> None: ...

    types = {t.name.rsplit(".", 1)[1]: t.data_type for t in build_metadata(Svc)[1].data_types}
    assert types["Described"].description == "A described class."
    assert types["Described"].properties[0].data_type.description == "Its name."
    assert types["Undescribed"].description == ""
    assert types["Instructed"].description == "From the instruction."


def test_access_levels_are_written_only_when_declared():
    class Svc(AppFunctionServiceEntryPoint):
        service_name = "com.example.docs.Access"
        xml_file_name = "access"

        @app_function
        @app_function_access_level(ACCESS_LEVEL_SELF, compat_enforcement=True)
        def private(self) -> None: ...

        @app_function
        def public(self) -> None: ...

    spec = Svc.app_function_spec()
    private, public = spec.functions
    assert (private.access_level, private.compat_enforcement) == (ACCESS_LEVEL_SELF, True)
    assert public.access_level is None
    metadata = {f.id.rsplit("#", 1)[1]: f for f in build_metadata(Svc)[0]}
    assert metadata["public"].access_level == ACCESS_LEVEL_ANDROID_TRUSTED


def test_an_unknown_access_level_is_refused():
    with pytest.raises(ValueError, match="ACCESS_LEVEL_SELF"):
        app_function_access_level(150)


def test_options_without_app_function_are_an_error():
    class Svc(AppFunctionServiceEntryPoint):
        service_name = "com.example.docs.Forgot"
        xml_file_name = "forgot"

        @app_function_access_level(ACCESS_LEVEL_SELF)
        def forgot(self) -> None: ...

    with pytest.raises(AppFunctionCompileError, match="forgot has AppFunction options but no @app_function"):
        Svc.app_function_spec()


def test_schema_definition_is_taken_from_the_overridden_method():
    @app_function_schema_definition(name="createNote", version=2, category="notes")
    class CreateNoteSchema:
        def create_note(self, title: str, body: str | None = None) -> str: ...

    class Svc(CreateNoteSchema, AppFunctionServiceEntryPoint):
        service_name = "com.example.docs.Schema"
        xml_file_name = "schema"

        @app_function
        def create_note(self, title: str, body: str | None) -> str:
            return title

        @app_function
        def other(self) -> None: ...

    (create, other) = build_metadata(Svc)[0]
    assert (create.schema.category, create.schema.name, create.schema.version) == ("notes", "createNote", 2)
    assert [p.is_required for p in create.parameters] == [True, False]  # the schema's default
    assert not other.HasField("schema")


def test_deprecation_message_from_our_decorator_and_from_pep_702():
    import typing_extensions

    class Svc(AppFunctionServiceEntryPoint):
        service_name = "com.example.docs.Old"
        xml_file_name = "old"

        @deprecated("Use new_thing instead.")
        @app_function
        def old_thing(self) -> None: ...

        @app_function
        @typing_extensions.deprecated("Also old.")
        def older_thing(self) -> None: ...

    old, older = build_metadata(Svc)[0]
    assert old.deprecation.message == "Use new_thing instead."
    assert older.deprecation.message == "Also old."


def test_service_name_and_xml_file_name_are_checked():
    class NoName(AppFunctionServiceEntryPoint):
        xml_file_name = "x"

        @app_function
        def f(self) -> None: ...

    with pytest.raises(AppFunctionCompileError, match="set the class attribute service_name"):
        NoName.implemented_function_ids()

    class BadFile(AppFunctionServiceEntryPoint):
        service_name = "com.example.docs.BadFile"
        xml_file_name = "Bad File"

    with pytest.raises(AppFunctionCompileError, match="xml_file_name"):
        BadFile.app_function_spec()


def test_serializable_needs_a_dataclass():
    with pytest.raises(TypeError, match="put @dataclass under it"):

        @app_function_serializable
        class NotADataclass:
            pass


def test_inherited_functions_are_declared_once_with_the_subclass_service_name():
    class Base(AppFunctionServiceEntryPoint):
        @app_function
        def shared(self) -> str:
            return "base"

    class Child(Base):
        service_name = "com.example.docs.Child"
        xml_file_name = "child"

        def shared(self) -> str:  # an override keeps the base declaration
            return "child"

        @app_function
        def own(self) -> None: ...

    assert Child.implemented_function_ids() == {"com.example.docs.Child#shared", "com.example.docs.Child#own"}


# --------------------------------------------------------------------------- Uri
def test_uri_parts():
    uri = Uri.parse("content://com.example.notes/attachments/7?size=large&x=a%20b#top")
    assert uri.scheme == "content"
    assert uri.authority == "com.example.notes"
    assert uri.path == "/attachments/7"
    assert uri.path_segments == ["attachments", "7"]
    assert uri.last_path_segment == "7"
    assert uri.get_query_parameter("x") == "a b"
    assert uri.fragment == "top"
    assert str(uri) == "content://com.example.notes/attachments/7?size=large&x=a%20b#top"
    assert Uri.parse("mailto:a@b.c").is_opaque and Uri.parse("mailto:a@b.c").authority is None
    assert Uri.parse("/relative").scheme is None
    assert Uri.parse("a") == Uri.parse("a") and len({Uri.parse("a"), Uri.parse("a")}) == 1


def test_uri_builder():
    built = (
        Uri.Builder().scheme("https").authority("example.com").append_path("a b").append_query_parameter("q", "x&y").build()
    )
    assert str(built) == "https://example.com/a%20b?q=x%26y"
    assert built.get_query_parameter("q") == "x&y"


# --------------------------------------------------------------------------- PendingIntent
EXPLICIT = Intent(component=ComponentName("com.example.app", "com.example.app.Main"))


IMPLICIT = Intent(action="android.intent.action.VIEW")


def test_pending_intents_follow_androids_creation_rules():
    """Row 7 (PendingIntentTest): immutable implicit and mutable explicit work; what Android
    refuses for an app targeting 34+ is refused with its message."""
    pending = PendingIntent.get_activity(None, 0, EXPLICIT, PendingIntent.FLAG_IMMUTABLE)
    assert pending.creator_package == "com.example.app" and pending.is_activity and pending.is_immutable
    assert PendingIntent.get_activity(None, 0, IMPLICIT, PendingIntent.FLAG_IMMUTABLE).is_immutable
    assert not PendingIntent.get_broadcast(None, 0, EXPLICIT, PendingIntent.FLAG_MUTABLE).is_immutable
    packaged = Intent(action="android.intent.action.VIEW", package="com.example.app")
    assert PendingIntent.get_activity(None, 0, packaged, PendingIntent.FLAG_MUTABLE).creator_package == "com.example.app"
    unsafe = PendingIntent.FLAG_MUTABLE | PendingIntent.FLAG_ALLOW_UNSAFE_IMPLICIT_INTENT
    assert PendingIntent.get_activity(None, 0, IMPLICIT, unsafe).intent == IMPLICIT
    with pytest.raises(IllegalArgumentException, match="^: Targeting U\\+ \\(version 34 and above\\) disallows creating"):
        PendingIntent.get_activity(None, 0, IMPLICIT, PendingIntent.FLAG_MUTABLE)
    with pytest.raises(IllegalArgumentException, match="com.example.app: Targeting S\\+ .* one of FLAG_IMMUTABLE or FLAG_MUTABLE"):
        PendingIntent.get_activity(None, 0, EXPLICIT, 0)
    with pytest.raises(IllegalArgumentException, match="^Cannot set both FLAG_IMMUTABLE and FLAG_MUTABLE for PendingIntent$"):
        PendingIntent.get_broadcast(None, 0, EXPLICIT, PendingIntent.FLAG_IMMUTABLE | PendingIntent.FLAG_MUTABLE)


def test_pending_intent_creator_comes_from_the_context():
    class FakeContext:
        package_name = "com.example.creator"

    pending = PendingIntent.get_service(FakeContext(), 1, EXPLICIT, PendingIntent.FLAG_IMMUTABLE)
    assert pending.creator_package == "com.example.creator"


def test_intent_extras_are_primitives_only():
    with pytest.raises(IllegalArgumentException, match="extra"):
        Intent(component=EXPLICIT.component, extras={"x": [1, 2]})
