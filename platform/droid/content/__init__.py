"""android.content: the Context an app or agent works through."""

from droid.content.context import Context, connect

__all__ = ["Context", "connect"]
