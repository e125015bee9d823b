"""The rules engine: games, states, actions, dice, and one module per ruleset.

Layers: rules uses geometry and scenes; view, cli and analysis use rules. Nothing here imports
pygame.
"""
