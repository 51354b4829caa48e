"""The conformance suite: spec/platform-android.md §4 (the CTS checklist) and §5, as cases that
run against any device.

- ``registry``: the cases, each tied to a checklist row (``checklist``);
- ``target``: the device under test as Contexts, plus the CTS-like apps the run installs;
- ``in_process``: a fresh device in this process (``make test``);
- ``runner``: one result per case, as ``droidsim conformance`` prints and writes.
"""
