"""The Java exceptions that Android's binder calls throw, as Python exceptions.

Each also subclasses the nearest Python built-in, so ``except ValueError`` works
for code that does not know Android.
"""


class IllegalArgumentException(ValueError):
    """An argument the platform refuses, e.g. an unknown function id."""


class IllegalStateException(RuntimeError):
    """A call made when the object is not in a state to take it."""


class SecurityException(PermissionError):
    """The caller is not allowed to make this call."""


class UnsupportedOperationException(NotImplementedError):
    """The device does not offer this call."""


class OperationCanceledException(Exception):
    """The operation was cancelled through its CancellationSignal."""


BINDER_EXCEPTIONS: dict[str, type[Exception]] = {
    cls.__name__: cls
    for cls in (
        IllegalArgumentException,
        IllegalStateException,
        SecurityException,
        UnsupportedOperationException,
    )
}
