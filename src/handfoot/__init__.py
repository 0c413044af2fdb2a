"""handfoot: a pure rules engine for Hand and Foot and Hand, Knee and Foot.

The modules directly in this package form the core: standard library only, no I/O, no global
random state.  Everything else (command line, bots, simulations) lives in sub-packages that
import the core, never the other way round.
"""

__version__ = "0.1.0"
