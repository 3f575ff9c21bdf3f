# One module per variant ruleset (bgrules.rules.ruleset imports only the one chosen).

# The garbage of earlier compilations collected before the variants compile, as companion/__init__.py
# does and for the same reason (a heap given the sources stays in few pieces).
import gc

gc.collect()
