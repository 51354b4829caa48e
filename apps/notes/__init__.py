"""Notes: a sample app with create and update (SetField) AppFunctions."""
