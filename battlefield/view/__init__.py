"""The play window and the pictures (pygame). USER_VIDEO_DRIVER: SDL_VIDEODRIVER as the user
set it before any module here set its own default (the headless picture modules default it to
SDL's dummy driver; the window must not open on that unless the user asked)."""

import os

USER_VIDEO_DRIVER = os.environ.get("SDL_VIDEODRIVER")
