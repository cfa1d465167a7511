"""The site: a checked register set and its citation outcomes -> safe Markdown pages,
clean HTML and excerpt files, for MkDocs (`compat_register.plugin`) or any other engine."""
