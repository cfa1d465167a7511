"""Storage: what the file system must guarantee to every stage above.

Takes paths and bytes; gives bounded reads of regular files only (`regular`), writes of
several files that all happen or none does (`atomic`), a journal that finishes such a write
after the process was killed (`journal`), and one writer at a time per project (`lock`).
Imports nothing from the other stages.
"""
