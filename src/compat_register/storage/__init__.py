"""Storage: what the file system must guarantee to every stage above. Takes paths and bytes;
gives bounded reads, writes of several files all or none (even across a kill), one writer
at a time, JSON caches, and where a project keeps what. Imports no other stage."""
