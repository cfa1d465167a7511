"""Reading a registers folder: files -> YAML with positions -> shape -> typed models.

Takes a project's `storage.layout.Paths`; gives a `RegisterSet`, the parsed `Document` of
every file (for positions), citations.lock's text and the problems found so far. `folder`
is the one module that reads the registers folder; `projectdir` finds the registers folder of
the project a command runs in. Each module's job: docs/architecture.md.
"""
