"""Smart home: a sample app that lists, switches and dims lights."""
