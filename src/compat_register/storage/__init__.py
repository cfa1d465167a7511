"""Storage: what the file system must guarantee to every stage above, and where a project
keeps what.

Takes paths and bytes; gives bounded reads of regular files only (`regular`), writes of
several files that all happen or none does (`atomic`), a journal that finishes such a write
after the process was killed (`journal`), one writer at a time per project (`lock`,
`project`), JSON caches (`jsoncache`), and the project's file names and paths (`layout`:
`Paths`). Imports nothing from the other stages. Each module's job: docs/architecture.md.
"""
