"""Weather: a sample app reporting the current weather for a location (deterministic data)."""
