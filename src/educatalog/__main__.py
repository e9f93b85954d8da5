"""``python -m educatalog``: the ``educatalog`` command."""

import sys

from educatalog.cli import main

sys.exit(main())
