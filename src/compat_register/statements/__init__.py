"""Statements stage: the normative statements of a specification's files, pure.

Takes the text of each file of a revision (Markdown, MDX, TypeScript schemas) and gives
each sentence holding an RFC 2119 / 8174 keyword in capitals, with its lines, keyword,
text and heading (`extract`, through `markdown`, `typescript`, `sentences`); tells each
statement new, changed or the same across revisions (`revisions`), reads a changelog into
items (`changelog`), and keeps what a blob holds by its id (`statementcache`).
"""
