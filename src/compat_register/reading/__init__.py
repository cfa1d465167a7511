"""Reading a registers folder: files -> YAML with positions -> shape -> typed models.

Takes a registers directory; gives a `RegisterSet`, the parsed `Document` of every file
(for positions) and the problems found so far. `folder` is the only module here that
touches the file system.
"""
