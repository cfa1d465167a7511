"""Reading a registers folder: files -> YAML with positions -> shape -> typed models.

Takes a registers directory; gives a `RegisterSet`, the parsed `Document` of every file
(for positions) and the problems found so far. `folder` is the module here that reads
files; `project` finds the registers folder of the project a command runs in.
"""
