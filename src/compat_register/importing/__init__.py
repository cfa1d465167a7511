"""Importing: hand-written register pages moved into register files.

Takes the text of a page in the hand-written shape (title, header lines, summary, the
`Status column:` line, one block of bullets per entry; plain text or Markdown); gives the
register's data in the schema's order (`page` reads the page's shape, `fields` turns its
bullets into fields, both pure), the register file's text in the house style (`yamlout`,
pure) and the plan of the files to write, checked against the registers folder (`plan`).
Every problem is located in the page; `api.import_pages` writes the files, all or none.
Each module's job: docs/architecture.md.
"""
