"""compat-register: compatibility registers as checked data.

The package is the pipeline, one sub-package per stage, each importing only itself and the
stages before it (tests/test_architecture.py holds it to that):

- `model`: the values every stage passes along (positions, diagnostics, typed registers);
- `citations`: citations and prose as text;
- `reading`: a registers folder -> YAML with positions -> shape -> typed models;
- `checking`: citations resolved to sources, the rules a schema cannot express, references;
- `sources`: what git says about a pinned commit (through one git runner), checkouts, cache;
- `following`: verify, remap, follow, stamps, bump, and the byte-preserving edits of fix;
- `reporting`: diagnostics and results as text, GitHub annotations and JSON;
- `site`: register pages as Markdown, made safe.

`api` is the public surface, one function per command; `cli` (click) and `plugin` (MkDocs)
are thin shells over it. docs/architecture.md walks through the tree.
"""

__version__ = "0.1.0"
