"""Statements of a TypeScript schema's doc comments, under the declaration each documents."""

from __future__ import annotations

from compat_register.statements.extract import reader, statements

SCHEMA = """/**
 * A request. Senders MUST set an id.
 */
export interface Request {
  /**
   * The id. It MUST NOT be null,
   * and SHOULD be unique ({@link RequestId}).
   *
   * ```ts
   * const MUST = 1;
   * ```
   */
  id: RequestId;
  // A line comment MUST be skipped: TypeDoc does not publish it.
  "quoted-key"?: string; /** Trailing MAY comment. */
}
"""


def test_doc_comments_are_statements_of_the_schema_under_their_declaration() -> None:
    found = [
        (s.line, s.end, s.keyword, s.text, s.heading, s.anchor)
        for s in statements("schema/x/schema.ts", SCHEMA)
    ]
    assert found == [
        (2, 2, "MUST", "Senders MUST set an id.", "Request", "request"),
        (
            6,
            7,
            "MUST NOT",
            "It MUST NOT be null, and SHOULD be unique (RequestId).",
            "Request.id",
            "request-id",
        ),
    ]


def test_which_files_are_read() -> None:
    assert reader("schema/x/schema.ts") == "typescript"
    assert reader("a/b.mdx") == reader("a.md") == "markdown"
    assert reader("schema/x/schema.json") is None and reader("a.txt") is None
    assert reader("a.txt", ["*.txt"]) == "markdown"
    assert statements("schema/x/schema.json", '{"MUST": 1}') == []
