"""Checking a register set. Takes a loaded `RegisterSet` and its documents; gives the
diagnostics of the rules a schema cannot express, the references' backlinks and each
citation's source (`resolve`)."""
