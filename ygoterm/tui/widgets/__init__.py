"""The TUI's widgets: the board and its places, the panels beside it, the questions asked
over it, lists. A widget draws what it is given and posts messages up; it never opens a
screen."""
