"""The client side of play across the network: the link to a `battlefield serve` game
(link.py), a seat that sends a side's actions and keeps its copy of the game in step (seat.py,
mirror.py), and the computer player as a remote seat (`battlefield bot`, bot.py). Server and
clients share the messages (battlefield/server/messages.py)."""
