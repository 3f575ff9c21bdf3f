"""The host's side of the rules engine (bgrules, the firmware's own): position and variant arguments
and board text for the verbs, reading move notation, GNU Backgammon as the reference."""
