"""Computer players: they read a State, ask the rules what is legal, and pick actions."""
