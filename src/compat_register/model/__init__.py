"""The values every stage passes along: positions, diagnostics and the typed register set.

Takes nothing from the other stages; every stage takes from here.
"""
