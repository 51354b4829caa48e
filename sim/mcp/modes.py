"""The ``--confirm`` modes, in a module of their own: the CLI builds its options from them
without importing the SDK, which costs every droidsim command about a second."""

ELICIT, NEVER, ALWAYS_ALLOW = "elicit", "never", "always-allow"
MODES = (ELICIT, NEVER, ALWAYS_ALLOW)
