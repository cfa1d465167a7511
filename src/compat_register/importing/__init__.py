"""Importing: hand-written register pages moved into register files.

Takes a page in the hand-written shape (plain text or Markdown); gives the register's data
in the schema's order (`page` reads the shape, `fields` the bullets), its file's text in
the house style (`yamlout`) and the plan of files checked against the registers folder
(`plan`), every problem located in the page. `api.import_pages` writes all or none.
"""
