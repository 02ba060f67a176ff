"""What the TUI shows, worked out without Textual: the duel's session (seats, undo, saves,
the curtain), what an option or a card is called on screen, card drawing with rich, the
manual actions a card offers, settings and deck lists. Tested without a terminal; a test
holds that nothing here imports Textual."""
