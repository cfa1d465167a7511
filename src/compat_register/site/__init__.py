"""The site: register pages as Markdown, made safe, for MkDocs or any other engine.

Takes a checked register set and its citation outcomes; gives Markdown pages as strings
(`render`, through `markdown` for prose), clean HTML (`sanitize`), and the Markdown
extensions the pages are written for (`extensions`); each register as a plain page in the
hand-written shape (`plain`), which `importing` reads back. The MkDocs plugin that adds the pages
to a site is `compat_register.plugin`, a thin shell over `api` and `render`.
"""
