"""Every conformance case; importing this package registers them, in this order."""

from sim.conformance.cases import (  # noqa: F401 - imported to register
    execution,
    cancellation,
    enabled_state,
    packages,
    indexing,
    shell_commands,
    parcel,
    access_matrix,
    access_api,
    access_levels,
    discovery,
    jetpack,
)
