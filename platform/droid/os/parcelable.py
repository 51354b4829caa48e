"""android.os.Parcelable and android.os.Bundle: values that cross the binder as themselves.

An AppFunction may take or return any concrete Parcelable (androidx
``AppFunctionTypeReference.isParcelableType``), described as PARCELABLE (13) with
the class's Java name. On Android the parcel carries the object; droidsim's
binder carries documents, so a Parcelable says how it becomes one.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar, Mapping, TypeVar

P = TypeVar("P", bound="Parcelable")


class Parcelable(ABC):
    """A value written whole into the parcel. ``QUALIFIED_NAME`` is its Java class
    (``android.os.Bundle``); its properties are what an AppFunctionData holds
    (int, float, bool, str, bytes, nested documents, or lists of one kind)."""

    QUALIFIED_NAME: ClassVar[str] = ""

    @abstractmethod
    def write_to_parcel(self) -> Mapping[str, Any]:
        """The properties of the document this value crosses the binder as."""

    @classmethod
    @abstractmethod
    def create_from_parcel(cls: type[P], values: Mapping[str, Any]) -> P:
        """The value back from those properties; ValueError or TypeError when they
        are not one."""


class Bundle(dict, Parcelable):  # type: ignore[misc]
    """``android.os.Bundle``: string keys to values a document can carry."""

    QUALIFIED_NAME = "android.os.Bundle"

    def write_to_parcel(self) -> Mapping[str, Any]:
        return dict(self)

    @classmethod
    def create_from_parcel(cls, values: Mapping[str, Any]) -> "Bundle":
        return cls(values)


__all__ = ["Bundle", "Parcelable"]
