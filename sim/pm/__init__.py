"""Package manager: reads what an app ships (manifest, function XML, resources) at install time."""
