"""The site, for MkDocs (`compat_register.plugin`) or any other engine.

Takes a checked register set and its citation outcomes; gives safe Markdown pages, clean
HTML and excerpt files.
"""
