"""The platform API that apps and agents import: Android's names, Python's manners."""
