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
