"""A project's paths and file names, from one home (`storage.layout`)."""

from __future__ import annotations

from pathlib import Path

from compat_register.storage.layout import Paths, is_register_file, register_file, slug_of


def test_the_cache_root() -> None:
    """$REGISTER_CACHE, else `.register/cache` beside the registers folder."""
    assert Paths.of(Path("registers"), Path("/c")).cache == Path("/c")
    assert Paths.of(Path("registers")).cache == Path(".register/cache")
    assert Paths.of(Path(".")).cache == Path("../.register/cache")
    assert Paths.of(Path("/w/site/registers")).cache == Path("/w/site/.register/cache")


def test_every_path_of_a_project() -> None:
    paths = Paths.of(Path("site/registers"))
    assert paths.sources == Path("site/registers/sources.yaml")
    assert paths.lock == Path("site/registers/citations.lock")
    assert paths.register("meta") == Path("site/registers/meta.yaml")
    assert paths.written("../up") == Path("site/registers/../up")
    assert paths.written("/src/up") == Path("/src/up")
    assert paths.writer_lock == Path("site/.register/lock")
    assert paths.journal == Path("site/.register/journal.json")
    assert paths.history_cache == Path("site/.register/cache/history.json")
    assert paths.excerpt_cache == Path("site/.register/cache/excerpts")
    cached = Paths.of(Path("site/registers"), Path("/c"))
    assert cached.history_cache == Path("/c/history.json")
    assert cached.journal == paths.journal  # the journal and the lock stay with the project


def test_which_files_are_registers() -> None:
    assert is_register_file("meta.yaml")
    assert not is_register_file("sources.yaml")
    assert not is_register_file(".#meta.yaml")  # an editor's lock
    assert not is_register_file("meta.yml")
    assert not is_register_file("citations.lock")
    assert register_file("meta") == "meta.yaml"
    assert slug_of("registers/meta.yaml") == "meta"
    assert slug_of("meta.yaml") == "meta"
