__version__ = "0.1.0"

# Each game registers itself with the engine's registry (`core.engine.register_game`) when its module is imported.
# Importing every module of `games/` here, once, when the package is first imported, lets every entry point know all
# the games while the core never imports the layer above it (a new game's module is found, not listed).
import importlib as _importlib, pkgutil as _pkgutil
from . import games as _games

for _module in _pkgutil.iter_modules(_games.__path__):
    if not _module.name.startswith('_'): _importlib.import_module(f"{_games.__name__}.{_module.name}")
