"""``python -m handfoot``: the same command line as the ``handfoot`` script."""

from handfoot.cli.main import main

raise SystemExit(main())
