"""android.app.PendingIntent, restricted to what an AppFunction may hand an agent.

An app returns a PendingIntent so that an agent can open a screen of the app
without building an intent itself. Android's guidance is to make it explicit
(it names the component it starts) and immutable (``FLAG_IMMUTABLE``), so that
the agent cannot redirect it. droidsim accepts only that form: ``get_activity``,
``get_broadcast`` and ``get_service`` refuse an implicit intent or a missing
``FLAG_IMMUTABLE`` with ``IllegalArgumentException``.

``Intent`` and ``ComponentName`` here are the minimal explicit-intent shapes a
PendingIntent needs (android.content would be their home on Android).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

from droid.net.uri import Uri
from droid.os.exceptions import IllegalArgumentException

# Extras an explicit intent may carry across the binder: primitives only.
_EXTRA_KINDS = (bool, int, float, str)


@dataclass(frozen=True)
class ComponentName:
    """The package and class an explicit intent starts."""

    package_name: str
    class_name: str

    def __post_init__(self) -> None:
        if not self.package_name or not self.class_name:
            raise IllegalArgumentException("ComponentName needs a package name and a class name")

    def flatten_to_string(self) -> str:
        return f"{self.package_name}/{self.class_name}"

    @staticmethod
    def unflatten_from_string(text: str) -> "ComponentName":
        package, sep, cls = text.partition("/")
        if not sep:
            raise IllegalArgumentException(f"not a flattened component name: {text!r}")
        if cls.startswith("."):
            cls = package + cls
        return ComponentName(package, cls)


@dataclass(frozen=True)
class Intent:
    """An intent; explicit when ``component`` is set."""

    action: str | None = None
    component: ComponentName | None = None
    data: Uri | None = None
    extras: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for key, value in self.extras.items():
            if not isinstance(key, str) or not isinstance(value, _EXTRA_KINDS):
                raise IllegalArgumentException(
                    f"intent extra {key!r}: only str keys and bool, int, float or str values"
                )
        object.__setattr__(self, "extras", MappingProxyType(dict(self.extras)))

    @property
    def is_explicit(self) -> bool:
        return self.component is not None

    @property
    def package(self) -> str | None:
        return self.component.package_name if self.component else None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Intent):
            return NotImplemented
        return (self.action, self.component, self.data, dict(self.extras)) == (
            other.action,
            other.component,
            other.data,
            dict(other.extras),
        )

    def __hash__(self) -> int:
        return hash((self.action, self.component, self.data, tuple(sorted(self.extras.items()))))


class PendingIntent:
    """A token that lets another app start ``intent`` as the creator app."""

    FLAG_ONE_SHOT = 1 << 30
    FLAG_NO_CREATE = 1 << 29
    FLAG_CANCEL_CURRENT = 1 << 28
    FLAG_UPDATE_CURRENT = 1 << 27
    FLAG_IMMUTABLE = 1 << 26
    FLAG_MUTABLE = 1 << 25

    TYPE_ACTIVITY = "activity"
    TYPE_BROADCAST = "broadcast"
    TYPE_SERVICE = "service"
    _TYPES = (TYPE_ACTIVITY, TYPE_BROADCAST, TYPE_SERVICE)

    QUALIFIED_NAME = "android.app.PendingIntent"

    __slots__ = ("creator_package", "target_type", "request_code", "intent", "flags")

    def __init__(
        self,
        creator_package: str,
        target_type: str,
        request_code: int,
        intent: Intent,
        flags: int,
    ) -> None:
        if target_type not in self._TYPES:
            raise IllegalArgumentException(f"unknown PendingIntent type {target_type!r}")
        if not isinstance(intent, Intent):
            raise IllegalArgumentException("PendingIntent needs an Intent")
        if not intent.is_explicit:
            raise IllegalArgumentException(
                "droidsim only allows explicit PendingIntents: set Intent(component=ComponentName(...))"
            )
        if not flags & self.FLAG_IMMUTABLE or flags & self.FLAG_MUTABLE:
            raise IllegalArgumentException(
                "droidsim only allows immutable PendingIntents: pass PendingIntent.FLAG_IMMUTABLE"
            )
        self.creator_package = creator_package or intent.component.package_name  # type: ignore[union-attr]
        self.target_type = target_type
        self.request_code = int(request_code)
        self.intent = intent
        self.flags = int(flags)

    @classmethod
    def get_activity(cls, context: Any, request_code: int, intent: Intent, flags: int) -> "PendingIntent":
        """A PendingIntent that starts an activity. ``context`` supplies the creator
        package; with no context (unit tests) the intent's package is the creator."""
        return cls(_package_of(context), cls.TYPE_ACTIVITY, request_code, intent, flags)

    @classmethod
    def get_broadcast(cls, context: Any, request_code: int, intent: Intent, flags: int) -> "PendingIntent":
        return cls(_package_of(context), cls.TYPE_BROADCAST, request_code, intent, flags)

    @classmethod
    def get_service(cls, context: Any, request_code: int, intent: Intent, flags: int) -> "PendingIntent":
        return cls(_package_of(context), cls.TYPE_SERVICE, request_code, intent, flags)

    @property
    def is_immutable(self) -> bool:
        return True

    @property
    def is_activity(self) -> bool:
        return self.target_type == self.TYPE_ACTIVITY

    def _key(self) -> tuple:
        return (self.creator_package, self.target_type, self.request_code, self.intent, self.flags)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PendingIntent) and other._key() == self._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        target = self.intent.component.flatten_to_string() if self.intent.component else "?"
        return f"PendingIntent({self.target_type} {target} from {self.creator_package})"


def _package_of(context: Any) -> str:
    return getattr(context, "package_name", "") if context is not None else ""
