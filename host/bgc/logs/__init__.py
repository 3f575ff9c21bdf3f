"""What a board leaves behind and what bgc makes of it: journals read back (the firmware's own
companion.journal), replayed and exported (.mat, .sgf, a chouette's ledger), and files written
whole."""
