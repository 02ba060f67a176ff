"""What is true on the board now and the basic changes to it: which cards a filter names,
which continuous effects apply, what a player sees, and moving, destroying and equipping cards
with their replacement effects. Layer 3: imports `state` and `core`."""
