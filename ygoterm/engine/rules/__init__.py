"""The game's flow: turns and phases, Summons by the player, battle, chains and response
windows, activation legality, the commands a player may give, manual actions. Layer 5."""
