"""Following: where a cited file's lines went between two commits.

Takes a citation and the steps between two pins (`sources.steps`); gives where its lines
ended (`follow`, `track`), through hunks (`remap`), moves (`moves`, `oneline`)
and renames (`paths`), each file read once (`texts`). `verifying` and `rewriting` call it.
"""
