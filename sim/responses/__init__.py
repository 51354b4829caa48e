"""Where a code-less app's answers come from (docs/responses.md).

A Kotlin app's folder (manifest, res/xml, the KSP-generated function XML) has no Python code:
nothing of its DEX runs. Its functions answer from a response source the user supplies at
install (a recorded cassette, a Python double checked against the XML) and otherwise refuse
with ERROR_NOT_SUPPORTED, naming the call; values generated from the schema only when asked.
"""
