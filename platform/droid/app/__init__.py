"""android.app: ``PendingIntent`` (explicit and immutable only) and the intent it wraps."""

from droid.app.pending_intent import ComponentName, Intent, PendingIntent

__all__ = ["ComponentName", "Intent", "PendingIntent"]
