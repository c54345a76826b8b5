import importlib as _importlib, os as _os, sys as _sys
from .core.registry import import_every as _import_every
from . import games as _games

__version__ = "0.1.0"

# Each game registers itself with the registry (`core.registry.register_game`) when its module is imported.
# Importing every module of `games/` here, once, when the package is first imported, lets every entry point know all
# the games while the core never imports the layer above it (a new game's module is found, not listed). A game made
# outside the package (a plug-in) is loaded by naming its module in CARDGAMES_TUTOR_GAMES (several: separated by commas),
# so that a separate process (`cardgames-tutor play`, the classroom) knows it too.
_import_every(_games)
for _name in filter(None, (_n.strip() for _n in _os.environ.get('CARDGAMES_TUTOR_GAMES', '').split(','))):
    try: _importlib.import_module(_name)
    except Exception as _e:  # one line, and the tutor goes on with the games it has
        print(f"cardgames_tutor: the game plug-in {_name!r} named in CARDGAMES_TUTOR_GAMES is not loaded: {_e}", file=_sys.stderr)
