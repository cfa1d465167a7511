"""Citations and prose as text, pure. Takes a citation as written or a prose field; gives
its parts (`syntax`), how a quote compares with lines (`compare`), which parts of Markdown
are prose (`nonprose`, `mdcode`), a string quoted for YAML or Markdown (`quoting`)."""
