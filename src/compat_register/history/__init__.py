"""History: what changed in the registers between commits of the repository holding them.

Takes the register files at two commits (or a commit and the working tree) and the log;
gives a `Diff` per pair (`snapshot`, `changes`: pure), the folder's history commit by
commit, each file parsed once and cached by blob id (`repository`, `cache`), and what a
site shows of it (`timeline`).
"""
