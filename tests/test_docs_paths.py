"""Every script a reader is told to run exists where the text says: the docs, the README, the
hardware notes, the tests' and the tool's messages name scripts by path (scripts/README.md groups
them by kind), and a moved or renamed script must not leave a command that fails with "No such file"."""

import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT_PATH = re.compile(r"\bscripts/[\w./-]*?\.(?:py|sh)\b")
READ = (".md", ".py", ".sh", ".html", ".toml")
SKIP = {".git", ".venv", "build", "node_modules", "__pycache__"}
HISTORY = {os.path.join("docs", "performance-history.md")}  # records what was run then, retired scripts too


def texts():
    for top in ("README.md", "docs", "hardware", "host", "tests", "scripts", "firmware", ".ci"):
        path = os.path.join(ROOT, top)
        if os.path.isfile(path):
            yield path
            continue
        for dirpath, dirnames, filenames in os.walk(path):
            dirnames[:] = [d for d in dirnames if d not in SKIP]
            for name in filenames:
                if name.endswith(READ) or name == "run":
                    yield os.path.join(dirpath, name)


def test_every_script_named_in_the_docs_and_messages_exists():
    missing = []
    for path in texts():
        if os.path.relpath(path, ROOT) in HISTORY:
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for m in SCRIPT_PATH.finditer(text):
            name = m.group(0)
            if not os.path.exists(os.path.join(ROOT, name)):
                line = text.count("\n", 0, m.start()) + 1
                missing.append("%s:%d names %s" % (os.path.relpath(path, ROOT), line, name))
    assert not missing, "scripts named but not there:\n" + "\n".join(missing)
