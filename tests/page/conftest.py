"""The page tests' browser (Debian's chromium, headless) and a small reader of the DOM it dumps:
elements found by their data attributes, as the pages' users and tools find them."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest

from battlefield.cli.main import main
from battlefield.page.browser import INSTALL, find_chromium


@pytest.fixture(scope="session")
def browser() -> str:
    exe = find_chromium()
    if exe is None:
        pytest.skip(f"no headless browser on this machine: {INSTALL}")
    return exe


class Dom(HTMLParser):
    """Every element's tag and attributes in document order, and the text inside the
    elements that have an id."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str]]] = []
        self.texts: dict[str, list[str]] = {}
        self._open: list[str | None] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = {k: (v if v is not None else "") for k, v in attrs}
        self.elements.append((tag, a))
        if tag not in ("br", "meta", "input", "link", "img", "hr", "col", "wbr") and \
                not tag.endswith("/"):
            self._open.append(a.get("id"))
            if a.get("id"):
                self.texts.setdefault(a["id"], [])

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        self.elements.append((tag, {k: (v if v is not None else "") for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        if self._open:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        for i in self._open:
            if i:
                self.texts[i].append(data)

    def with_attr(self, name: str) -> dict[str, dict[str, str]]:
        """The elements that have attribute `name`, by its value."""
        return {a[name]: a for _, a in self.elements if name in a}

    def text(self, element_id: str) -> str:
        return " ".join(" ".join(self.texts.get(element_id, [])).split())


def run_cli(*args: str) -> int:
    return main(list(args))


@pytest.fixture(scope="session")
def skirmish_log(tmp_path_factory) -> Path:
    """A whole skirmish battle (two computer players) saved as a log."""
    path = tmp_path_factory.mktemp("game") / "game.jsonl"
    assert run_cli("simulate", "--ruleset", "skirmish", "--seed", "1", "--log", str(path)) == 0
    return path
