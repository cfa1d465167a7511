"""History: what changed in the registers between commits of the repository holding them.

Takes the register files' texts at two commits (or a commit and the working tree) and the
repository's log; gives a `Diff` per pair (`snapshot` summarises one file, `changes`
compares two summaries: pure), the history of the registers folder, commit by commit, with
each file parsed once and the results cached by blob id (`repository`, `cache`), and what a
site shows of it (`timeline`: each entry's last changes, state counts over time).
"""
