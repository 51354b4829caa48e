"""android.net: ``Uri``."""

from droid.net.uri import Uri

__all__ = ["Uri"]
