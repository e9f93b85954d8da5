"""``python -m educatalog.cli``: the ``educatalog`` command, as ``python -m educatalog``."""

import sys

from educatalog.cli import main

sys.exit(main())
