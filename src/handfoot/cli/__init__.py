"""The ``handfoot`` command line.  Each command is a module with ``add_parser(subparsers)``."""
