"""The case categories: BFCL's, plus what only a device can check. Kept light for the CLI."""

CATEGORIES = (
    "simple", "multiple", "parallel", "parallel-multiple", "irrelevance",
    "missing-information", "multi-turn", "destructive-confirmation", "non-English",
)
