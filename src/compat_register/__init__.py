"""compat-register: compatibility registers as checked data.

The pipeline, one module per stage: `loader` (YAML -> data with positions) -> `schema`
(shape) -> `registerset` (typed models) -> `validate` (rules a schema cannot express) ->
`refs` (cross-references, backlinks) -> `verify` (citations against pinned commits) ->
`render` (Markdown pages). `cli` and `plugin` are thin shells over `api`.
"""

__version__ = "0.1.0"
