# The codes of bgrules.turn's search, for the modules that use them beside it: the rules a
# diagnosis may relax to find out which one a play broke (bgrules.turn_why) or that a variant's
# search checks (bgrules/variants), and what a target search is for. bgrules.turn loads turn_why
# on demand, so turn_why imports them from here, never from bgrules.turn; bgrules.turn inlines the
# same numbers with const() (MicroPython inlines a const only in its own module).

# Rules a diagnosis may relax (bits of a search's ``relax``; the one broken is its ``why``).
R_BAR = 1
R_BLOCK = 2
R_BEAROFF = 4
R_DICE = 8
R_CAP = 16  # a variant's limit of checkers on a point (Ludus relaxes it with R_BLOCK)
R_PIN = 32  # Pin: the mover's checker is pinned (relaxed with R_BLOCK)

# What the target search is for.
FIND_PLAY = 0  # a complete legal play (as many dice as possible, the larger die)
FIND_PARTIAL = 1  # the start of a complete legal play
FIND_ANY = 2  # any number of dice (diagnosis)
FIND_BROKEN = 3  # a path that broke a relaxed rule: which rule, where (diagnosis)
