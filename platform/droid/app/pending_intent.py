"""android.app.PendingIntent, with the creation rules of an app targeting Android 14+.

An app returns a PendingIntent so that an agent can open a screen of the app
without building an intent itself. As ``PendingIntent.checkPendingIntent`` and the
activity manager do for targetSdk 34 and up, ``get_activity``, ``get_broadcast`` and
``get_service`` raise ``IllegalArgumentException`` for exactly three things: both
``FLAG_IMMUTABLE`` and ``FLAG_MUTABLE``, neither of them, and a mutable intent that is
implicit (no component, no package). An immutable implicit intent and a mutable explicit
one are allowed (Android's guidance is still: explicit and immutable).

``Intent`` and ``ComponentName`` here are the minimal shapes a PendingIntent needs
(android.content would be their home on Android).
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
    """An intent; explicit when ``component`` is set. ``package`` (Intent.setPackage) limits an
    intent without a component to one app, which makes it no longer implicit."""

    action: str | None = None
    component: ComponentName | None = None
    data: Uri | None = None
    extras: Mapping[str, Any] = field(default_factory=dict)
    package: str | None = None

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
    def is_implicit(self) -> bool:
        """Neither a component nor a package: any app may answer it."""
        return self.component is None and self.package is None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Intent):
            return NotImplemented
        return (self.action, self.component, self.data, dict(self.extras), self.package) == (
            other.action,
            other.component,
            other.data,
            dict(other.extras),
            other.package,
        )

    def __hash__(self) -> int:
        return hash((self.action, self.component, self.data, tuple(sorted(self.extras.items())), self.package))


class PendingIntent:
    """A token that lets another app start ``intent`` as the creator app."""

    FLAG_ONE_SHOT = 1 << 30
    FLAG_NO_CREATE = 1 << 29
    FLAG_CANCEL_CURRENT = 1 << 28
    FLAG_UPDATE_CURRENT = 1 << 27
    FLAG_IMMUTABLE = 1 << 26
    FLAG_MUTABLE = 1 << 25
    FLAG_ALLOW_UNSAFE_IMPLICIT_INTENT = 1 << 24

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
        creator_package = creator_package or (intent.component.package_name if intent.component else intent.package or "")
        _check_flags(int(flags), intent, creator_package)
        self.creator_package = creator_package
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
        return bool(self.flags & self.FLAG_IMMUTABLE)

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


def _check_flags(flags: int, intent: Intent, package: str) -> None:
    """PendingIntent.checkPendingIntent (S+) and the activity manager's U+ block, their messages."""
    immutable, mutable = bool(flags & PendingIntent.FLAG_IMMUTABLE), bool(flags & PendingIntent.FLAG_MUTABLE)
    if immutable and mutable:
        raise IllegalArgumentException("Cannot set both FLAG_IMMUTABLE and FLAG_MUTABLE for PendingIntent")
    if not immutable and not mutable:
        raise IllegalArgumentException(
            f"{package}: Targeting S+ (version 31 and above) requires that one of FLAG_IMMUTABLE or FLAG_MUTABLE "
            "be specified when creating a PendingIntent.\nStrongly consider using FLAG_IMMUTABLE, only use "
            "FLAG_MUTABLE if some functionality depends on the PendingIntent being mutable, e.g. if it needs to be "
            "used with inline replies or bubbles."
        )
    exempt = flags & (PendingIntent.FLAG_NO_CREATE | PendingIntent.FLAG_ALLOW_UNSAFE_IMPLICIT_INTENT)
    if mutable and intent.is_implicit and not exempt:
        raise IllegalArgumentException(
            f"{package}: Targeting U+ (version 34 and above) disallows creating or retrieving a PendingIntent with "
            "FLAG_MUTABLE, an implicit Intent within and without FLAG_NO_CREATE and FLAG_ALLOW_UNSAFE_IMPLICIT_INTENT "
            "for security reasons. To retrieve an already existing PendingIntent, use FLAG_NO_CREATE, however, to "
            "create a new PendingIntent with an implicit Intent use FLAG_IMMUTABLE."
        )


def _package_of(context: Any) -> str:
    return getattr(context, "package_name", "") if context is not None else ""
