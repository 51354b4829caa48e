"""The "app_function" system service: index, caller validation, execution pipeline."""
