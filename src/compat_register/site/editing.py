"""Each entry's "edit" link, from mkdocs.yml's `repo_url` and `edit_uri`; pure. A site
whose `edit_uri` does not end with its docs folder gives none: where the registers folder
is edited cannot be told.
"""

from __future__ import annotations

import posixpath
from urllib.parse import quote, urljoin

from ..model.registers import Entry, Register
from .markdown import escape_inline, link_destination, safe_url


def edit_base(repo_url: str | None, edit_uri: str | None, docs: str, registers: str) -> str | None:
    """The URL the registers folder's files are edited at, or None: `edit_uri` (relative
    to `repo_url`, or a full URL) is where the docs folder's pages are; `docs` and
    `registers` are relative to mkdocs.yml. `edit/main/docs/` gives `edit/main/registers/`."""
    if not edit_uri or not (repo_url or "://" in edit_uri):
        return None
    pages = urljoin((repo_url or "").rstrip("/") + "/", edit_uri)
    docs_path = posixpath.normpath(docs.replace("\\", "/")).strip("/")
    registers_path = posixpath.normpath(registers.replace("\\", "/")).strip("/")
    if docs_path.startswith("..") or registers_path.startswith(".."):
        return None  # a folder outside mkdocs.yml's: its place in the repository is unknown
    head = pages.rstrip("/")
    if docs_path not in ("", ".") and not head.endswith("/" + docs_path):
        return None
    root = head[: len(head) - len(docs_path)] if docs_path not in ("", ".") else head + "/"
    base = f"{root}{quote(registers_path)}/" if registers_path not in ("", ".") else root
    return base if safe_url(base) else None


def edit_link(edit_url: str | None, register: Register, entry: Entry) -> str:
    """`[Edit META-07 at meta.yaml:42](…/meta.yaml#L42){ .reg-edit }`, or '' without an
    `edit_url`."""
    if not edit_url:
        return ""
    name = posixpath.basename(register.file.replace("\\", "/"))
    url = f"{edit_url.rstrip('/')}/{quote(name)}#L{entry.where.line}"
    if not safe_url(url):
        return ""
    label = escape_inline(f"Edit {entry.id} at {name}:{entry.where.line}")
    return f"[{label}]({link_destination(url)}){{ .reg-edit }}"
