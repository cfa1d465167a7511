"""Citations and prose as text: pure functions over strings.

Takes a citation as written, or a prose field, and gives its parts: path, lines and quote
(`syntax`), how its quote compares with a file's lines (`compare`), and which parts of a
Markdown text are prose (`nonprose`, with `mdcode` for where Python-Markdown sees code); a
string quoted as a one-line YAML scalar or a Markdown code span (`quoting`). No file, no
git. Each module's job: docs/architecture.md.
"""
