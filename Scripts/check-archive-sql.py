#!/usr/bin/env python3
"""Checks that the archive's SQL stays in the archive: no Swift file outside
Sources/HealthProbeArchive names one of the archive's tables in SQL (FROM, JOIN, INTO, UPDATE,
TABLE), so that renaming a column or a table is a change to one target. The tables are read from
the archive's migrations, so a new table is covered without editing this file.

It reads tokens, not lines: each Swift file is lexed (comments, string literals single-line,
multi-line and raw, interpolations), the text of its string literals taken in order as one
stream of SQL words, and a keyword followed by a table name is found wherever the two fall —
`FROM` at the end of one line of a multi-line literal and the table at the start of the next,
or in two literals joined with `+`. Words outside string literals (a Swift `from:` label, a
comment) are not SQL and are never read.

Every other target reaches the archive through the typed methods of `ArchiveStore` and its
companions; its connection (`writer`) is internal to the archive and the compiler refuses it
elsewhere. Tests are not checked: the archive's own tests look inside it (`@testable import
HealthProbeArchive`), and the end-to-end tests read the file a real process wrote through
`ArchiveInspection`, a plain SQLite reader independent of the archive's code — so a fault in the
archive's reads cannot hide one in its writes.

Prints each offending place and exits 1 if there is one; run by .ci/run and by
ArchiveBoundaryTests, which also gives it files of its own (arguments: more files to check) to
see it refuse them.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARCHIVE = os.path.join(ROOT, "Sources", "HealthProbeArchive")
KEYWORDS = {"FROM", "JOIN", "INTO", "UPDATE", "TABLE"}
WORD = re.compile(r"[\"`]?([A-Za-z_][A-Za-z_0-9]*)[\"`]?")


def swift_files(folder):
    for directory, _, files in os.walk(folder):
        for name in sorted(files):
            if name.endswith(".swift"):
                yield os.path.join(directory, name)


class Lexer:
    """The string literals of a Swift source, as (line, text) pieces in order; an interpolation
    ends a piece (its expression is code, not SQL) and its own literals are read too."""

    def __init__(self, text):
        self.text = text
        self.index = 0
        self.line = 1
        self.pieces = []

    def advance(self, count=1):
        for _ in range(count):
            if self.index < len(self.text):
                if self.text[self.index] == "\n":
                    self.line += 1
                self.index += 1

    def at(self, token):
        return self.text.startswith(token, self.index)

    def code(self, closing=None):
        """Reads code until `closing` (an interpolation's `)` at depth 0) or the end."""
        depth = 0
        while self.index < len(self.text):
            if self.at("//"):
                while self.index < len(self.text) and self.text[self.index] != "\n":
                    self.advance()
            elif self.at("/*"):
                self.block_comment()
            elif self.at('"') or (self.at("#") and re.match(r'#+"', self.text[self.index:])):
                self.literal()
            elif closing and self.text[self.index] == "(":
                depth += 1
                self.advance()
            elif closing and self.text[self.index] == ")":
                if depth == 0:
                    self.advance()
                    return
                depth -= 1
                self.advance()
            else:
                self.advance()

    def block_comment(self):
        depth = 0
        while self.index < len(self.text):
            if self.at("/*"):
                depth += 1
                self.advance(2)
            elif self.at("*/"):
                depth -= 1
                self.advance(2)
                if depth == 0:
                    return
            else:
                self.advance()

    def literal(self):
        hashes = len(re.match(r"#*", self.text[self.index:]).group(0))
        self.advance(hashes)
        multiline = self.at('"""')
        quote = '"""' if multiline else '"'
        self.advance(len(quote))
        closing = quote + "#" * hashes
        escape = "\\" + "#" * hashes
        piece, line = [], self.line
        while self.index < len(self.text):
            if self.at(closing):
                self.advance(len(closing))
                break
            if self.at(escape):
                self.advance(len(escape))
                if self.at("("):
                    self.pieces.append((line, "".join(piece)))
                    self.advance()
                    self.code(closing=")")
                    piece, line = [], self.line
                    continue
                self.advance()  # the escaped character
                piece.append(" ")
                continue
            if not multiline and self.text[self.index] == "\n":
                break
            piece.append(self.text[self.index])
            self.advance()
        self.pieces.append((line, "".join(piece)))


def sql_words(text):
    """(line, word) for every word of every string literal of a Swift source, in order."""
    lexer = Lexer(text)
    lexer.code()
    for line, piece in lexer.pieces:
        for match in WORD.finditer(piece):
            yield line + piece.count("\n", 0, match.start()), match.group(1)


def archive_tables():
    tables = set()
    for path in swift_files(ARCHIVE):
        with open(path, encoding="utf-8") as source:
            tables.update(re.findall(r"\bCREATE TABLE (?:IF NOT EXISTS )?\"?([A-Za-z_]+)", source.read()))
    return tables


def main():
    tables = archive_tables()
    if not tables:
        print("check-archive-sql: no table found in the archive's migrations")
        return 1
    problems = []
    paths = [path for top in ("Sources", "App", "Fuzz") for path in swift_files(os.path.join(ROOT, top))]
    for path in paths + sys.argv[1:]:
        if path.startswith(ARCHIVE + os.sep):
            continue
        with open(path, encoding="utf-8") as source:
            words = list(sql_words(source.read()))
        shown = os.path.relpath(path, ROOT) if os.path.abspath(path).startswith(ROOT + os.sep) else path
        for (line, word), (_, following) in zip(words, words[1:]):
            if word in KEYWORDS and following in tables:
                problems.append(f"{shown}:{line}: names the archive's table '{following}' outside HealthProbeArchive")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
