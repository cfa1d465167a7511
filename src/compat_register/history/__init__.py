"""History. Takes the register files at two commits (or a commit and the working tree) and
the log; gives what changed between them (`Diff`) and commit by commit, each file
summarised once by blob id.
"""
