"""Importing: hand-written register pages moved into register files.

Takes the text of a page in the hand-written shape (title, header lines, summary, the
`Status column:` line, one block of bullets per entry; plain text or Markdown); gives the
register's data in the schema's order (`page` reads the page's shape, `fields` turns its
bullets into fields, both pure) and the register file's text in the house style
(`yamlout`, pure). Every problem is located in the page. `api.import_pages` checks the
result against the registers folder and writes the files, all or none.
"""
