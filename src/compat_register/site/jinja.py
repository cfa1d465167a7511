"""The templates' side of rendering: the Jinja2 environment (a site's templates first), the
packaged templates and assets, and a template's failure as one located `TemplateProblem`.
"""

from __future__ import annotations

import re
import traceback
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

from .escaping import Trusted, escape_value
from .formatter import PageFormatter
from .values import TemplateProblem

PACKAGED_TEMPLATES = Path(__file__).parent / "templates"
"""The templates shipped in the wheel; a site may point the plugin at its own copy."""

ASSETS = ("register.css", "register.js")
"""Files under `templates/assets/` that the pages need (badges, overview sorting)."""


@lru_cache(maxsize=8)
def environment(templates: Path | None = None) -> jinja2.Environment:
    """Jinja2 for Markdown, a site's templates first: every printed value passes through
    `escape_value` (HTML autoescape would be the wrong escape for Markdown)."""
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
    """The innermost template line in `err`'s traceback (Jinja2 rewrites its frames so
    they name the template file), or the template's name alone."""
    found: tuple[str, int | None] = (name, None)
    for frame, line in traceback.walk_tb(err.__traceback__):
        if "__jinja_exception__" in frame.f_globals:
            found = (frame.f_code.co_filename, line)
    return found


def asset(name: str, templates: Path | None = None) -> str:
    """The text of an asset (`register.css`, `register.js`), a site's own copy first."""
    for folder in (templates, PACKAGED_TEMPLATES):
        if folder is not None and (folder / "assets" / name).is_file():
            return (folder / "assets" / name).read_text(encoding="utf-8")
    raise FileNotFoundError(name)
