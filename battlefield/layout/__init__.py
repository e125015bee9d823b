"""Terrain layouts that design themselves: a catalogue of pieces, candidate tables on a 0.5"
lattice, their figures in analyze's terms, and a search that brings them to targets."""
