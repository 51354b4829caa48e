"""android.os: binder identity, cancellation and the exceptions binder calls throw."""

from droid.os.binder import Binder, CallingIdentity
from droid.os.cancellation import CancellationSignal
from droid.os.exceptions import (
    IllegalArgumentException,
    IllegalStateException,
    OperationCanceledException,
    SecurityException,
    UnsupportedOperationException,
)

__all__ = [
    "Binder",
    "CallingIdentity",
    "CancellationSignal",
    "IllegalArgumentException",
    "IllegalStateException",
    "OperationCanceledException",
    "SecurityException",
    "UnsupportedOperationException",
]
