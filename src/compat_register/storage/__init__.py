"""Storage: what the file system must guarantee to every stage above (bounded reads, writes
of several files all or none, even across a kill, one writer at a time, JSON caches), and
where a project keeps what. Imports nothing from the other stages."""
