"""AppFunctionException and its typed subclasses (platform codes plus Jetpack's).

The platform class carries a code, a message and extras; Jetpack adds one
subclass per code. Both live here: ``AppFunctionException(code, message)``
builds the right subclass, so a code that crosses the binder comes back as the
same Python type.
"""

from __future__ import annotations

from typing import Any, ClassVar


class AppFunctionException(Exception):
    ERROR_CATEGORY_UNKNOWN = 0
    ERROR_CATEGORY_REQUEST_ERROR = 1
    ERROR_CATEGORY_SYSTEM = 2
    ERROR_CATEGORY_APP = 3

    ERROR_DENIED = 1000
    ERROR_INVALID_ARGUMENT = 1001
    ERROR_DISABLED = 1002
    ERROR_FUNCTION_NOT_FOUND = 1003
    ERROR_RESOURCE_NOT_FOUND = 1500
    ERROR_LIMIT_EXCEEDED = 1501
    ERROR_RESOURCE_ALREADY_EXISTS = 1502
    ERROR_SYSTEM_ERROR = 2000
    ERROR_CANCELLED = 2001
    ERROR_ENTERPRISE_POLICY_DISALLOWED = 2002
    ERROR_APP_UNKNOWN_ERROR = 3000
    ERROR_PERMISSION_REQUIRED = 3500
    ERROR_NOT_SUPPORTED = 3501

    error_code: int
    # Set on each typed subclass; the base class takes the code as an argument.
    CODE: ClassVar[int | None] = None

    def __new__(cls, *args: Any, **kwargs: Any) -> "AppFunctionException":
        if cls is AppFunctionException and args and isinstance(args[0], int):
            cls = _CLASS_BY_CODE.get(args[0], AppFunctionUnknownException)
        return super().__new__(cls)

    def __init__(self, *args: Any, extras: dict | None = None) -> None:
        if self.CODE is None:
            code, message = (list(args) + [None, None])[:2]
            if not isinstance(code, int):
                raise TypeError("AppFunctionException(error_code, error_message)")
        elif args and isinstance(args[0], int):
            code, message = args[0], (args[1] if len(args) > 1 else None)
        else:
            code, message = self.CODE, (args[0] if args else None)
        self.error_code = code
        self.error_message = message
        self.extras = extras or {}
        super().__init__(message)

    @property
    def error_category(self) -> int:
        return category_of(self.error_code)

    @property
    def error_name(self) -> str:
        return error_name(self.error_code)

    def __str__(self) -> str:
        # QPR2 and later append the code to getMessage(); Java prints a null message as "null".
        message = "null" if self.error_message is None else self.error_message
        return f"{message} (code {self.error_code})".strip()


def category_of(code: int) -> int:
    """Category is purely by range, as on the platform."""
    if 1000 <= code < 2000:
        return AppFunctionException.ERROR_CATEGORY_REQUEST_ERROR
    if 2000 <= code < 3000:
        return AppFunctionException.ERROR_CATEGORY_SYSTEM
    if 3000 <= code < 4000:
        return AppFunctionException.ERROR_CATEGORY_APP
    return AppFunctionException.ERROR_CATEGORY_UNKNOWN


def error_name(code: int) -> str:
    for name, value in vars(AppFunctionException).items():
        if name.startswith("ERROR_") and not name.startswith("ERROR_CATEGORY") and value == code:
            return name
    return f"ERROR_{code}"


class AppFunctionRequestException(AppFunctionException):
    """The request was at fault (1000-1999)."""


class AppFunctionSystemException(AppFunctionException):
    """The platform failed (2000-2999)."""


class AppFunctionAppException(AppFunctionException):
    """The target app failed (3000-3999)."""


class AppFunctionDeniedException(AppFunctionRequestException):
    CODE = AppFunctionException.ERROR_DENIED


class AppFunctionInvalidArgumentException(AppFunctionRequestException):
    CODE = AppFunctionException.ERROR_INVALID_ARGUMENT


class AppFunctionDisabledException(AppFunctionRequestException):
    CODE = AppFunctionException.ERROR_DISABLED


class AppFunctionFunctionNotFoundException(AppFunctionRequestException):
    CODE = AppFunctionException.ERROR_FUNCTION_NOT_FOUND


class AppFunctionElementNotFoundException(AppFunctionRequestException):
    CODE = AppFunctionException.ERROR_RESOURCE_NOT_FOUND


class AppFunctionLimitExceededException(AppFunctionRequestException):
    CODE = AppFunctionException.ERROR_LIMIT_EXCEEDED


class AppFunctionElementAlreadyExistsException(AppFunctionRequestException):
    CODE = AppFunctionException.ERROR_RESOURCE_ALREADY_EXISTS


class AppFunctionSystemUnknownException(AppFunctionSystemException):
    CODE = AppFunctionException.ERROR_SYSTEM_ERROR


class AppFunctionCancelledException(AppFunctionSystemException):
    CODE = AppFunctionException.ERROR_CANCELLED


class AppFunctionAppUnknownException(AppFunctionAppException):
    CODE = AppFunctionException.ERROR_APP_UNKNOWN_ERROR


class AppFunctionPermissionRequiredException(AppFunctionAppException):
    CODE = AppFunctionException.ERROR_PERMISSION_REQUIRED


class AppFunctionNotSupportedException(AppFunctionAppException):
    CODE = AppFunctionException.ERROR_NOT_SUPPORTED


class AppFunctionUnknownException(AppFunctionException):
    """A code this library does not know; keeps the code it was given. The platform's
    ERROR_ENTERPRISE_POLICY_DISALLOWED (2002) is one: Jetpack has no class for it
    (AppFunctionException.fromPlatformClass)."""


_CLASS_BY_CODE: dict[int, type[AppFunctionException]] = {
    cls.CODE: cls
    for cls in (
        AppFunctionDeniedException,
        AppFunctionInvalidArgumentException,
        AppFunctionDisabledException,
        AppFunctionFunctionNotFoundException,
        AppFunctionElementNotFoundException,
        AppFunctionLimitExceededException,
        AppFunctionElementAlreadyExistsException,
        AppFunctionSystemUnknownException,
        AppFunctionCancelledException,
        AppFunctionAppUnknownException,
        AppFunctionPermissionRequiredException,
        AppFunctionNotSupportedException,
    )
    if cls.CODE is not None
}
