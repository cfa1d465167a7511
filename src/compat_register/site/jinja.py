"""The Jinja2 environment (a site's templates first) and its escaping policy: what a
formatter returns is safe Markdown (`Markup`), any other printed value is escaped as
Markdown text (`escape_value`); a template's failure is one located `TemplateProblem`."""

from __future__ import annotations

import html
import re
import traceback
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
import yaml
from markupsafe import Markup

from ..model.registers import Register
from .formatter import PageFormatter
from .markdown import escape_inline
from .values import TemplateProblem

PACKAGED_TEMPLATES = Path(__file__).parent / "templates"
"""The templates shipped in the wheel; a site may point the plugin at its own copy."""

ASSETS = ("register.css", "register.js")
"""Files under `templates/assets/` that the pages need."""

REGISTER_BOOST = 4
"""A register page's weight in material's search: above the manual and the overview (0.5)."""

_HTML_SPECIALS = re.compile(r"[<>&\"']")


@lru_cache(maxsize=8)
def environment(templates: Path | None = None) -> jinja2.Environment:
    """Jinja2 for Markdown, a site's templates first (HTML autoescape would be the wrong
    escape for Markdown: `finalize` escapes instead)."""
    loaders: list[jinja2.BaseLoader] = [jinja2.FileSystemLoader(str(PACKAGED_TEMPLATES))]
    if templates is not None:
        loaders.insert(0, jinja2.FileSystemLoader(str(templates)))
    return jinja2.Environment(
        loader=jinja2.ChoiceLoader(loaders),
        autoescape=False,  # noqa: S701 - the output is Markdown: `finalize` escapes for it
        finalize=escape_value,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def render_template(env: jinja2.Environment, name: str, fmt: PageFormatter, **context: Any) -> str:
    """The page template `name` rendered with `fmt` and `context`, runs of blank lines made
    one; any failure raised as a `TemplateProblem` at its template line."""
    try:
        text = env.get_template(name).render(fmt=Trusted(fmt), **context)
    except jinja2.TemplateSyntaxError as err:
        raise TemplateProblem(err.filename or name, err.lineno, err.message or "") from err
    except Exception as err:  # noqa: BLE001 - a site's template may call anything
        file, line = _template_frame(err, name)
        raise TemplateProblem(file, line, f"{type(err).__name__}: {err}") from err
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


def _template_frame(err: Exception, name: str) -> tuple[str, int | None]:
    """The innermost template line in `err`'s traceback, or the template's name alone."""
    frames = traceback.walk_tb(err.__traceback__)
    found = [
        (f.f_code.co_filename, line) for f, line in frames if "__jinja_exception__" in f.f_globals
    ]
    return found[-1] if found else (name, None)


def asset(name: str, templates: Path | None = None) -> str:
    """The text of an asset (`register.css`, `register.js`), a site's own copy first."""
    for folder in (templates, PACKAGED_TEMPLATES):
        if folder is not None and (folder / "assets" / name).is_file():
            return (folder / "assets" / name).read_text(encoding="utf-8")
    raise FileNotFoundError(name)


class Trusted:
    """A formatter as a template sees it (`fmt`, `view`): what its methods return is safe."""

    def __init__(self, target: Any) -> None:
        self._target = target

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._target, name)
        if not callable(value):
            return value
        return lambda *args, **kwargs: _trusted(value(*args, **kwargs))


def _trusted(value: Any) -> Any:
    """`value` marked safe Markdown: a string, or each string of a list."""
    if isinstance(value, str):
        return Markup(value)
    if isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value):
        return [Markup(item) for item in value]
    return value


def escape_value(value: Any) -> str:
    """The environment's `finalize`: a value not marked safe, as Markdown showing its text."""
    if isinstance(value, Markup):
        return str(value)
    text = str(value)
    return text if not text.strip() else escape_inline(text)


def front_matter(register: Register) -> str:
    """A register page's front matter: its search boost, its tags and its title, HTML-escaped
    (themes print both as they are)."""
    meta: dict[str, Any] = {"search": {"boost": REGISTER_BOOST}, **title_meta(register.title)}
    if register.tags:
        meta["tags"] = [html.escape(tag) for tag in register.tags]
    return Markup("---\n" + yaml_lines(meta) + "---\n")


def title_meta(title: str) -> dict[str, str]:
    """`{"title": ...}`, HTML-escaped, when a title holds HTML's specials (MkDocs would take
    the heading's text, which material's `striptags` unescapes)."""
    return {"title": html.escape(title)} if _HTML_SPECIALS.search(title) else {}


def yaml_lines(meta: dict[str, Any]) -> str:
    """`meta` as lines of YAML front matter (none when it is empty)."""
    return yaml.safe_dump(meta, allow_unicode=True, sort_keys=False) if meta else ""
