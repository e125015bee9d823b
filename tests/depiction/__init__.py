"""Tests of battlefield/depiction: what every view draws, decided once."""
