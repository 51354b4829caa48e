"""An agent app's own agent, run through droidsim's doors (``droidsim agent --as PKG``,
``droidsim mcp --as PKG``) in a process of its own, as the app: under the app's uid where
the device gives apps their own, else confined to its code and its folder (docs/agent.md,
"Your own agent app"). Nothing of the app's code is ever imported by the command itself."""
