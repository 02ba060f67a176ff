"""The duel's data: cards, players, chain and battle records, tournament time, the save format,
the duel's state object with its primitive changes, and copying/determinizing it. Layer 2:
imports only `core` (and the schema)."""
