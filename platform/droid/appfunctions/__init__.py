"""android.app.appfunctions (platform layer) and the Jetpack-style declaration layer."""

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
    AppFunctionSearchSpec,
    ExecuteAppFunctionRequest,
    ExecuteAppFunctionResponse,
)
from droid.appfunctions.service import AppFunctionService

# The declaration layer (the Jetpack analogue): see docs/declaring-functions.md.
from droid.appfunctions.declarations import (
    PATTERN_ADVANCED_GLOB,
    PATTERN_LITERAL,
    PATTERN_PREFIX,
    PATTERN_SIMPLE_GLOB,
    PATTERN_SUFFIX,
    Float32,
    Instant,
    Instruction,
    Int32,
    IntValueConstraint,
    PatternMatcher,
    SerialName,
    StringValueConstraint,
    UriValueConstraint,
    app_function,
    app_function_access_level,
    app_function_instruction,
    app_function_schema_capability,
    app_function_schema_definition,
    app_function_serializable,
    deprecated,
)
from droid.appfunctions.entry_point import AppFunctionServiceEntryPoint
from droid.appfunctions.loader import AppLoadError, load_app_service_class
from droid.appfunctions.schema.types import SetField
from droid.appfunctions.typeref import AppFunctionCompileError
