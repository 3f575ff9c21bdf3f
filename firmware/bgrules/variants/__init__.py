# One module per variant ruleset (bgrules.rules.ruleset imports only the one chosen).
