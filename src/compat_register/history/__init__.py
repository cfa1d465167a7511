"""History: what changed in the registers between commits of the repository holding them,
pair by pair (`Diff`) and commit by commit, each file summarised once by blob id.
"""
