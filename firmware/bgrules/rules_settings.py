# A game with settings (docs/variants.md, "Games not in the seeds"): "KEY:NAME=VALUE[:NAME=VALUE]"
# is the game its module's ``make`` builds with them. Kept apart from bgrules.rules so that a
# board whose game has no settings does not hold this code.


def with_settings(key):
    """The Rules of ``key``, a variant's name (one of bgrules.rules.VARIANTS) with settings;
    ValueError for a setting it lacks or a value it refuses."""
    parts = key.split(":")
    module = __import__("bgrules.variants." + parts[0], None, None, ("make",))
    make = getattr(module, "make", None)
    if make is None:
        raise ValueError("%s has no settings" % parts[0])
    given = {}
    for item in parts[1:]:
        kv = item.split("=")
        if len(kv) != 2 or not kv[0] or not kv[1]:
            raise ValueError("a setting is NAME=VALUE, got %r" % item)
        given[kv[0]] = int(kv[1]) if kv[1].isdigit() else kv[1]
    try:
        rules = make(**given)
    except TypeError:
        raise ValueError("%s has no setting among %s" % (parts[0], ", ".join(given)))
    rules.key = key
    return rules
