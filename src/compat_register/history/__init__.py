"""History. Takes the register files at two commits (or the working tree) and the log; gives
what changed between them and commit by commit (`Diff`), each file summarised once by blob id.
"""
