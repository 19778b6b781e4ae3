"""What the scene checkers share: the settings of a query, the paragraphs on screen, and a list of failures."""
import re
import urllib.parse


class Checker:
    """One opened view: its query's settings, the state the app reported, and the sentences found false."""

    def __init__(self, query, state):
        self.query, self.state = query, state
        self.settings = state["settings"]
        self.shown = state["shown"]
        self.texts = state["texts"]
        self.asked = dict(urllib.parse.parse_qsl(query.lstrip("?")))
        self.failures = []

    def fail(self, why):
        self.failures.append(f"{self.query}: {why}")

    def paragraph(self, start):
        """The one paragraph on screen that starts with `start`, or None (a failure) if there is none."""
        found = [t for t in self.texts if t.startswith(start)]
        if len(found) != 1:
            self.fail(f"{len(found)} paragraphs start with {start!r}")
            return None
        return found[0]

    def paragraph_if(self, start, expected, why=""):
        """The one paragraph starting with `start` when `expected`, else a failure if there is any -> or None."""
        found = [t for t in self.texts if t.startswith(start)]
        if not expected:
            if found:
                self.fail(f"a paragraph starts with {start!r} {why}\n    in: {found[0]}")
            return None
        if len(found) != 1:
            self.fail(f"{len(found)} paragraphs start with {start!r} {why}")
            return None
        return found[0]

    def says(self, text, phrase, expected, why=""):
        """`phrase` (a string or regex) is in `text` exactly when `expected` holds."""
        present = bool(re.search(phrase, text)) if isinstance(phrase, re.Pattern) else phrase in text
        if present != bool(expected):
            verb = "says" if present else "does not say"
            self.fail(f"{verb} {getattr(phrase, 'pattern', phrase)!r} {why}\n    in: {text}")
        return present

    def number_after(self, text, prefix):
        """The number printed right after `prefix` in `text` (a failure and None when there is none)."""
        m = re.search(re.escape(prefix) + r"\s*([-+]?[0-9.]+(?:e[-+]?[0-9]+)?)", text)
        if not m:
            self.fail(f"no number after {prefix!r} in: {text}")
            return None
        return float(m.group(1))
