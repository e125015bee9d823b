"""The play window and the pictures (pygame). No module here chooses SDL's video driver on
import: the pictures need no display, and the window opens on the one the user has (the
screenshot paths ask for SDL's dummy driver themselves, unless the user chose one)."""
