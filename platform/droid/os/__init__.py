"""android.os: binder identity, cancellation, parcelables and the exceptions binder calls throw."""

from droid.os.binder import Binder, CallingIdentity
from droid.os.cancellation import CancellationSignal
from droid.os.exceptions import (
    IllegalArgumentException,
    IllegalStateException,
    OperationCanceledException,
    SecurityException,
    UnsupportedOperationException,
)
from droid.os.parcelable import Bundle, Parcelable

__all__ = [
    "Binder",
    "Bundle",
    "CallingIdentity",
    "CancellationSignal",
    "IllegalArgumentException",
    "IllegalStateException",
    "OperationCanceledException",
    "Parcelable",
    "SecurityException",
    "UnsupportedOperationException",
]
