"""`RegisterError`, the one exception base (in the lowest stage, so every stage derives from
it; `cli` makes it one `Error:` line), and storage's own errors."""

from __future__ import annotations

from typing import ClassVar


class RegisterError(Exception):
    """A problem that ends a command, said in one line (no traceback reaches a user).
    `usage`: the command cannot do what was asked as asked (exit 2); else exit 1."""

    usage: ClassVar[bool] = False


class StorageError(RegisterError):
    """The project's state cannot be locked or settled. One line, for `Error:`."""


class WriteError(RegisterError):
    """Files that could not be written (all or none was). One line, naming the file."""


class EditError(RegisterError):
    """An edit of register files that cannot be made safely; nothing was written. One line."""
