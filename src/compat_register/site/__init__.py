"""The site: register pages as Markdown, made safe, and the MkDocs plugin that adds them.

Takes a checked register set and its citation outcomes; gives Markdown pages as strings
(`render`, through `markdown`), clean HTML (`sanitize`), and the `register` MkDocs plugin
(`plugin`), a thin shell over `api` and `render`.
"""
