"""Play across the network: `battlefield serve` (an authoritative game server around the engine),
and its clients: `battlefield bot` (the computer player as a remote seat) and
`battlefield play --join` (the window)."""
