"""The TUI's screens: the menu, the duel, the match, decks, the lab, dialogs. A screen wires
widgets to a presenter (a `Session`) and answers keys; no rule lives here."""
