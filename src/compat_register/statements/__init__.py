"""Statements stage, pure. Takes each file of a revision (Markdown, MDX, TypeScript); gives
each sentence holding a BCP 14 keyword (`extract`), its change across revisions
(`revisions`), a changelog's items (`markdownpages`), a suite's requirements aligned with
them (`alignment`); `statementcache` keeps them."""
