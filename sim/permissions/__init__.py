"""The permission manager: protection levels, grants and the privileged allowlist."""
