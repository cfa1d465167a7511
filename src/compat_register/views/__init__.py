"""Views stage. Takes a checked `RegisterSet`; gives the revision and concept matrices, each
revision's changes, the priorities and state counts as plain data, pure."""
