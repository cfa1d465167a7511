"""Following sources: citations judged and carried as their sources move.

Takes a checked register set and the pinned sources; gives each citation's outcome
(`verify`), where its lines went between two commits (`remap`, `follow`), review stamps
(`stamps`), and the byte-preserving rewrites of `bump` and `fix` (`edit`).
"""
