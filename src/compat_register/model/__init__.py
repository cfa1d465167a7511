"""The values every stage passes along: positions, diagnostics, the typed register set, the
register's words. Takes nothing from the other stages. Modules: docs/architecture.md."""
