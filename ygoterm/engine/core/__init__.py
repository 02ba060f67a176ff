"""Values that know no duel: places, positions and phases (`types`), the decision protocol's
values (`decision`), what happened (`events`), errors, and the frame machine that runs pending
work (`machine`). Layer 1 of the engine: imports nothing else of it."""
