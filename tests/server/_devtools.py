"""The DevTools client the server tests drive chromium with (battlefield/page/devtools.py)."""

from battlefield.page.devtools import Chromium, Page

__all__ = ["Chromium", "Page"]
