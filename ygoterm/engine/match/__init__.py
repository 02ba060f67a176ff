"""A match of duels (R-MATCH, R-TIME): the score, side-decking, the match clock, the match's
save format, its flow and its replay. Layer 7, the top of the engine."""
