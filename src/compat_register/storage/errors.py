"""The one exception base of `storage`: a problem a command reports as one line."""


class StorageError(Exception):
    """The project's state cannot be locked or settled. One line, for `Error:`."""
