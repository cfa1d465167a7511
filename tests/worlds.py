"""Files whose every line carries an identity, and edits that know where each line went.

The independent truth of the "never silently wrong" property tests: a `World` maps paths to
lines, each line an (identity, text) pair. Every edit keeps the identity of a line it
changes, moves, re-indents or carries into another file, and gives new lines new
identities, so after any history the generator can say where each original line is now
(or that it is gone) without asking git or the tool.

Code files are Go-like and full of short lines that occur many times (`}`, `if err != nil
{`, `case "x":`); Markdown files likewise (`---`, blank lines, table rules). A pair of
revision folders can hold copies of the same pages, as a specification repository does.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

MARKDOWN = (".md", ".mdx", ".markdown")
REVISIONS = ("2024-11-05", "2025-03-26")
"""The revision folders under spec/ (sources.yaml `revisions`), each holding a copy of each page."""
_MARKUP = re.compile(r"`+|\*+|(?<!\w)_+|_+(?!\w)")
_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'"})

CODE_TWINS = ("}", "\t}", "\tif err != nil {", "\t\treturn nil, err", '\tcase "x":', "\t\t}", ")")
MD_TWINS = ("---", "", "```", "| --- | --- |", "}", "- item")


def revision(path: str) -> str | None:
    """The revision folder `path` lies in (`spec/2024-11-05/`), or None."""
    folder = path.split("/")[:2]
    return "/".join(folder) + "/" if folder[-1] in REVISIONS else None


def counts(path: str, text: str) -> bool:
    """Whether a line has text the rule compares (not blank; in Markdown, not markup only,
    such as a code fence): other lines are judged by the rule alone, not by identity."""
    return bool(_form(path, [text]) and _form(path, [text]) != ["\n"])


def same_text(path: str, old: list[str], new: list[str]) -> bool:
    """The file kind's rule for two blocks (docs/pins.md), written again here on purpose:
    code compares every character but whitespace, line breaks and blank lines; Markdown
    also drops emphasis, code spans and quote style, but counts blank lines (a run of them
    as one paragraph break, at the block's edges too)."""
    return _form(path, old) == _form(path, new)


def _form(path: str, lines: list[str]) -> list[str]:
    if not path.endswith(MARKDOWN):
        return " ".join(lines).split()
    form: list[str] = []
    for line in lines:
        if line.strip():
            form += _MARKUP.sub("", line.translate(_QUOTES)).split()
        elif not form or form[-1] != "\n":
            form.append("\n")
    return form


@dataclass(frozen=True)
class Line:
    ident: int
    text: str


@dataclass
class World:
    """Paths -> lines; `fresh` hands out new identities."""

    files: dict[str, list[Line]] = field(default_factory=dict)
    counter: int = 0

    def fresh(self, text: str) -> Line:
        self.counter += 1
        return Line(self.counter, text)

    def copy(self) -> World:
        return World({p: list(lines) for p, lines in self.files.items()}, self.counter)

    def text(self, path: str) -> str:
        return "".join(line.text + "\n" for line in self.files[path])

    def where(self) -> dict[int, tuple[str, int]]:
        """Identity -> (path, 1-based line) of every line."""
        return {
            line.ident: (path, number)
            for path, lines in self.files.items()
            for number, line in enumerate(lines, 1)
        }


# --- files --------------------------------------------------------------------------------


def code_file(world: World, rng: random.Random, name: str) -> list[Line]:
    lines = [f"package {name}", ""]
    for number in range(rng.randint(2, 4)):
        func = f"{name}{number}"
        lines.append(
            f"func (s conn) {func.title()}(ctx context.Context, opts *Options) ([]Tool, error) {{"
        )
        for step in range(rng.randint(2, 6)):
            if rng.random() < 0.5:
                lines.append(f"\t{func}_{step} := compute(opts, {step})")
            else:
                lines += ["\tif err != nil {", "\t\treturn nil, err", "\t}"]
            if rng.random() < 0.2:
                lines += ["\tswitch kind {", '\tcase "x":', f"\t\tinitialized{step} = true", "\t}"]
        lines += ["\treturn nil, nil", "}", ""]
    return [world.fresh(text) for text in lines]


def markdown_file(world: World, rng: random.Random, name: str) -> list[Line]:
    lines = ["---", f"title: {name.title()}", "---", "", f"# {name.title()}", ""]
    for number in range(rng.randint(2, 4)):
        lines += [f"## Section {name} {number}", ""]
        for step in range(rng.randint(1, 4)):
            lines.append(f"The {name} server MUST send item_{number}_{step} with `value`.")
        lines.append("")
        if rng.random() < 0.5:
            lines += ["```json", "{", f'  "id": {number}', "}", "```", ""]
        if rng.random() < 0.4:
            lines += ["| a | b |", "| --- | --- |", f"| {name} | {number} |", ""]
    return [world.fresh(text) for text in lines]


def make_world(rng: random.Random, code: int, markdown: int, copies: int) -> World:
    """`code` Go-like files, `markdown` pages and `copies` pages kept per revision folder
    (the later revision's copy differs in a line or two)."""
    world = World()
    for number in range(code):
        world.files[f"pkg/f{number}.go"] = code_file(world, rng, f"f{number}")
    for number in range(markdown):
        world.files[f"docs/p{number}.md"] = markdown_file(world, rng, f"p{number}")
    for number in range(copies):
        first = markdown_file(world, rng, f"page{number}")
        later = [world.fresh(line.text) for line in first]
        if len(later) > 8:
            later[rng.randrange(6, len(later))] = world.fresh(f"Changed in 2025 ({number}).")
        world.files[f"spec/{REVISIONS[0]}/page{number}.md"] = first
        world.files[f"spec/{REVISIONS[1]}/page{number}.md"] = later
    return world


# --- edits --------------------------------------------------------------------------------


def _span(lines: list[Line], at: int, size: int) -> tuple[int, int]:
    start = at % max(1, len(lines))
    return start, min(len(lines), start + size)


def _keep(line: Line, text: str) -> Line:
    return Line(line.ident, text)


def pointer(world: World, path: str, at: int, size: int) -> None:
    """A `*` added before a word in a line that has none, or one taken away (code)."""
    lines = world.files[path]
    for offset in range(len(lines)):
        i = (at + offset) % len(lines)
        text = lines[i].text
        if "*" in text:
            lines[i] = _keep(lines[i], text.replace("*", "", 1))
            return
        if (found := re.search(r"(?<=[( ])[A-Za-z\[]", text)) is not None:
            lines[i] = _keep(lines[i], text[: found.start()] + "*" + text[found.start() :])
            return


def underscore(world: World, path: str, at: int, size: int) -> None:
    """A `_` put before a line's first word, or taken from it."""
    lines = world.files[path]
    for offset in range(len(lines)):
        i = (at + offset) % len(lines)
        if (found := re.search(r"\b_?[A-Za-z]", lines[i].text)) is not None:
            text = lines[i].text
            start = found.start()
            new = (
                text[:start] + text[start + 1 :]
                if text[start] == "_"
                else text[:start] + "_" + text[start:]
            )
            lines[i] = _keep(lines[i], new)
            return


def rewrite(world: World, path: str, at: int, size: int) -> None:
    """A line's text replaced: the same line, edited."""
    lines = world.files[path]
    i = at % len(lines)
    lines[i] = _keep(lines[i], lines[i].text.rstrip() + f" // v{at % 97}")


def reindent(world: World, path: str, at: int, size: int) -> None:
    """A block indented one level more (or less, where it can be)."""
    lines = world.files[path]
    start, end = _span(lines, at, size)
    unit = "  " if path.endswith(MARKDOWN) else "\t"
    for i in range(start, end):
        text = lines[i].text
        if not text:
            continue
        new = text[len(unit) :] if at % 2 and text.startswith(unit) else unit + text
        lines[i] = _keep(lines[i], new)


def move(world: World, path: str, at: int, size: int) -> None:
    """A block cut and pasted elsewhere in its file."""
    lines = world.files[path]
    start, end = _span(lines, at, size)
    block = lines[start:end]
    del lines[start:end]
    target = (at * 7 + 3) % (len(lines) + 1)
    lines[target:target] = block


def delete(world: World, path: str, at: int, size: int) -> None:
    lines = world.files[path]
    start, end = _span(lines, at, size)
    if len(lines) - (end - start) >= 2:
        del lines[start:end]


def insert(world: World, path: str, at: int, size: int) -> None:
    """New lines, among them short ones that occur elsewhere too."""
    lines = world.files[path]
    twins = MD_TWINS if path.endswith(MARKDOWN) else CODE_TWINS
    new = [
        world.fresh(twins[(at + k) % len(twins)] if (at + k) % 3 else f"\tadded_{at}_{k}()")
        for k in range(size)
    ]
    target = at % (len(lines) + 1)
    lines[target:target] = new


def split(world: World, path: str, at: int, size: int) -> None:
    """The second half of a file moved into a new file beside it."""
    lines = world.files[path]
    if len(lines) < 6:
        return
    cut = len(lines) // 2 + at % 3
    stem, dot, ext = path.rpartition(".")
    new = f"{stem}_part{at % 10}{dot}{ext}"
    if new not in world.files:
        world.files[new] = lines[cut:]
        del lines[cut:]


def rename(world: World, path: str, at: int, size: int) -> None:
    """A file renamed in its folder (Markdown to `.mdx`, code to another name)."""
    new = path[: -len(".md")] + ".mdx" if path.endswith(".md") else path.replace(".go", "_x.go")
    if new not in world.files:
        world.files[new] = world.files.pop(path)


def to_sibling(world: World, path: str, at: int, size: int) -> None:
    """A page moved into the other revision folder, beside the copy of it that folder holds
    (`page0.md` -> `page0_moved.md`): its lines have left their revision folder, so a
    citation of them is flagged (`left-revision`), never ok in the other folder. `path` if
    it is a page of a revision folder, else one of them. (Not into the copy's place: which
    of two near-identical pages then holds the path, content cannot tell.)"""
    pages = sorted(p for p in world.files if revision(p))
    if not pages:
        return
    page = path if revision(path) else pages[at % len(pages)]
    here = revision(page)
    assert here is not None
    there = next(f"spec/{r}/" for r in REVISIONS if f"spec/{r}/" != here)
    stem, dot, ext = page[len(here) :].rpartition(".")
    moved = f"{there}{stem}_moved{dot}{ext}"
    if moved not in world.files:
        world.files[moved] = world.files.pop(page)


def unmark(world: World, path: str, at: int, size: int) -> None:
    """Markdown: a word put in emphasis or a code span (markup only), or a blank line of a
    block deleted."""
    lines = world.files[path]
    start, end = _span(lines, at, size)
    for i in range(start, end):
        text = lines[i].text
        if text == "" and at % 2 and len(lines) > 2:
            del lines[i]
            return
        if (found := re.search(r"\b[a-z]{4,}\b", text)) is not None:
            word = found.group()
            mark = "**" if at % 3 else "`"
            lines[i] = _keep(lines[i], text.replace(word, f"{mark}{word}{mark}", 1))
            return


def to_mdx(world: World, path: str, at: int, size: int) -> None:
    """Every page of the revision folders renamed `.md` -> `.mdx`; on the way, one line of
    one copy is edited, or (`at` even) the lines in which the two copies of a page differ
    are synced across, each way: then each new page is the *other* folder's old page, and
    git's rename pairing (exact renames first) crosses the folders."""
    olds = sorted(p for p in world.files if p.startswith("spec/") and p.endswith(".md"))
    for old in olds:
        world.files[old + "x"] = world.files.pop(old)
    pages = sorted(p for p in world.files if p.startswith("spec/"))
    if not pages:
        return
    if at % 2:
        rewrite(world, pages[at % len(pages)], at, 1)
        return
    for first in (p for p in pages if revision(p) == f"spec/{REVISIONS[0]}/"):
        later = first.replace(*REVISIONS)
        if later in world.files:  # a page split off in one folder has no copy
            _swap_differences(world.files[first], world.files[later])


def _swap_differences(a: list[Line], b: list[Line]) -> None:
    """Sync two copies that still line up (the same length, a line or two apart) each way;
    copies that moved apart are left (a sync by position would be a rewrite of many lines)."""
    differ = [i for i in range(len(a)) if len(a) == len(b) and a[i].text != b[i].text]
    if len(a) != len(b) or len(differ) > 2:
        return
    for i in differ:
        a[i], b[i] = _keep(a[i], b[i].text), _keep(b[i], a[i].text)


EDITS = {
    "pointer": pointer,
    "underscore": underscore,
    "rewrite": rewrite,
    "reindent": reindent,
    "move": move,
    "delete": delete,
    "insert": insert,
    "split": split,
    "rename": rename,
    "unmark": unmark,
    "to_mdx": to_mdx,
    "to_sibling": to_sibling,
}


def apply(world: World, edit: str, file: int, at: int, size: int) -> None:
    """Apply one edit to the `file`-th path (in sorted order) of `world`, in place."""
    paths = sorted(world.files)
    EDITS[edit](world, paths[file % len(paths)], at, size)
