"""Device state: SQLite under the data directory."""
