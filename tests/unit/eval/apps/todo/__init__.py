"""To-do: an app the eval's word rules and retrieval were never tuned on (tests/unit/eval/test_retrieval.py)."""
