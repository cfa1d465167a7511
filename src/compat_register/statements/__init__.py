"""Statements stage: the normative statements of a specification's files, pure.

Takes the text of each file of a revision (Markdown and MDX pages, TypeScript schemas) and
gives its statements: each sentence holding an RFC 2119 / RFC 8174 keyword in capitals,
with its lines, keyword, text and the heading it stands under (`extract`; `markdown`
reads pages through markdown-it-py, `typescript` the doc comments of a schema, `sentences`
cuts prose into sentences and finds the keywords). Across revisions it tells each
statement new, changed or the same (`revisions`), and reads a revision's changelog into
items (`changelog`). `cache` keeps what a blob holds by its id between runs.
"""
