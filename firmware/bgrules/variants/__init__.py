# One module per variant ruleset (bgrules.rules.ruleset imports only the one chosen).

# The garbage of earlier compilations collected before this package's modules compile: a board
# given the sources (not the image, whose modules are frozen and leave none) compiles each module
# into the heap, and the collector runs only when an allocation fails, so the parse trees of the
# modules before would lie between the long-lived objects of these ones and leave no 9 KB in one
# piece for MicroPython's seventh interned-name pool (docs/performance.md, "Every module at once").
import gc

gc.collect()
