"""The ``droidsim`` command: adb-like verbs over a device."""
