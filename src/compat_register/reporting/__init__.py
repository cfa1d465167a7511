"""Reporting: diagnostics and results as text, GitHub annotations and JSON.

Takes diagnostics and the results of the commands; gives strings and JSON-ready data.
Prints nothing itself: `cli` prints what these return.
"""
