"""Following sources: citations judged and carried as their sources move.

Takes a checked register set, the pinned sources and citations.lock's text; gives each
citation's outcome (`verify`, `outcome`), where its lines went between two commits
(`follow`, `remap`, `moves`), review stamps (`stamps`), and the byte-preserving rewrites of
`bump` and `fix` (`edit`). Each module's job: docs/architecture.md.
"""
