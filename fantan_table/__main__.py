"""``python -m fantan_table`` is the ``fantan-table`` command."""

import sys

from .cli import main

sys.exit(main())
