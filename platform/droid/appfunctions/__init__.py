"""android.app.appfunctions (platform layer) and the Jetpack-style declaration layer.

The platform layer is imported eagerly: it is small and every user needs it. The declaration
layer (decorators, entry point, codec, type analysis, docstring parser, loader) is exported
lazily (PEP 562) because importing it costs most of a device's boot and the device never uses it:
``from droid.appfunctions import app_function`` still works, and imports it on first use.
"""

from droid.lazy_exports import lazy_exports

from droid.appfunctions.data import PROPERTY_RETURN_VALUE, AppFunctionData
from droid.appfunctions.exceptions import *  # noqa: F401,F403 - the exception family is public API
from droid.appfunctions.exceptions import AppFunctionException
from droid.appfunctions.manager import AppFunctionManager
from droid.appfunctions.metadata import (
    ACCESS_LEVEL_ANDROID_TRUSTED,
    ACCESS_LEVEL_SELF,
    ACCESS_LEVEL_SYSTEM,
    AppFunctionMetadata,
    AppFunctionPackageMetadata,
    DataType,
)
from droid.appfunctions.requests import (
    APP_FUNCTION_STATE_DEFAULT,
    APP_FUNCTION_STATE_DISABLED,
    APP_FUNCTION_STATE_ENABLED,
    AppFunctionName,
    AppFunctionSearchSpec,
    AppFunctionState,
    ExecuteAppFunctionRequest,
    ExecuteAppFunctionResponse,
)
from droid.appfunctions.service import AppFunctionService
from droid.appfunctions import exceptions as _exceptions

# The declaration layer (the Jetpack analogue, docs/declaring-functions.md): name -> its module.
_LAZY_EXPORTS = {
    "declarations": (
        "PATTERN_ADVANCED_GLOB",
        "PATTERN_LITERAL",
        "PATTERN_PREFIX",
        "PATTERN_SIMPLE_GLOB",
        "PATTERN_SUFFIX",
        "Float32",
        "Instant",
        "Instruction",
        "Int32",
        "IntValueConstraint",
        "PatternMatcher",
        "SerialName",
        "StringValueConstraint",
        "UriValueConstraint",
        "app_function",
        "app_function_access_level",
        "app_function_instruction",
        "app_function_schema_capability",
        "app_function_schema_definition",
        "app_function_serializable",
        "deprecated",
    ),
    "entry_point": ("AppFunctionServiceEntryPoint",),
    "loader": ("AppLoadError", "load_app_service_class"),
    "schema.types": ("SetField",),
    "typeref": ("AppFunctionCompileError",),
}
_lazy_names, __getattr__, __dir__ = lazy_exports(__name__, _LAZY_EXPORTS)

# What the package exports: the platform layer above (not the helpers its modules import, such
# as typing's) and the declaration layer; ``from droid.appfunctions import *`` imports the latter.
__all__ = sorted(
    [
        "PROPERTY_RETURN_VALUE",
        "AppFunctionData",
        "AppFunctionManager",
        "ACCESS_LEVEL_ANDROID_TRUSTED",
        "ACCESS_LEVEL_SELF",
        "ACCESS_LEVEL_SYSTEM",
        "AppFunctionMetadata",
        "AppFunctionPackageMetadata",
        "DataType",
        "APP_FUNCTION_STATE_DEFAULT",
        "APP_FUNCTION_STATE_DISABLED",
        "APP_FUNCTION_STATE_ENABLED",
        "AppFunctionName",
        "AppFunctionSearchSpec",
        "AppFunctionState",
        "ExecuteAppFunctionRequest",
        "ExecuteAppFunctionResponse",
        "AppFunctionService",
        *(
            name
            for name, value in vars(_exceptions).items()
            if not name.startswith("_") and getattr(value, "__module__", None) == _exceptions.__name__
        ),
        *_lazy_names,
    ]
)
