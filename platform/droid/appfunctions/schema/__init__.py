"""androidx.appfunctions.schema: predefined schema types."""

from droid.appfunctions.schema.types import SetField

__all__ = ["SetField"]
