"""Reading a registers folder: files -> YAML with positions -> shape -> typed models. Takes a
project's `Paths`; gives a `RegisterSet`, each file's `Document` and the problems so far."""
