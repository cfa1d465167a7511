"""Citations and prose as text: pure functions over strings.

Takes a citation as written, or a prose field, and gives its parts: path, lines and quote
(`syntax`), which source claims a path (`claims`), and which parts of a Markdown text are
prose (`prose`, with `mdcode` for where Python-Markdown sees code); a citation as a
one-line YAML scalar (`quoting`). No file, no git.
"""
