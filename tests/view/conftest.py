"""Fixtures of the window's tests."""

from __future__ import annotations

import pygame
import pytest


@pytest.fixture
def display():
    """pygame's display and fonts up for the test (SDL's dummy driver in the suite), down after."""
    pygame.display.init()
    pygame.font.init()
    yield
    pygame.display.quit()
