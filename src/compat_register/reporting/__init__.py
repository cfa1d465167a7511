"""Reporting. Takes diagnostics and command results; gives text, GitHub annotations and JSON
as strings and data (it prints nothing: `cli` does)."""
