"""The values every stage passes along: positions, diagnostics, the typed register set and
the register's words (`vocabulary`, read from the packaged schema).

Takes nothing from the other stages; every stage takes from here. Each module's job:
docs/architecture.md.
"""
