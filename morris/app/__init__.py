"""What every front end of the product shares, whatever board it plays on.

:mod:`~morris.app.controller` composes a board device, the referee, the opponent's turns and the
saved game, with its parts beside it (the menu :mod:`~morris.app.menu`, setups and puzzles
:mod:`~morris.app.setups`, searches :mod:`~morris.app.searching`, the remote player
:mod:`~morris.app.remote`, saving and resuming :mod:`~morris.app.persistence`, the words of
events :mod:`~morris.app.narration`), and offers a read-only
:class:`~morris.app.snapshot.Snapshot` with a subscriber hook; :mod:`~morris.app.mode` names the
game modes; :mod:`~morris.app.config` reads the configuration file; :mod:`~morris.app.store`
keeps the unfinished game and the finished records; :mod:`~morris.app.jobs` runs the engine's
searches beside the main loop (a process, a thread, or virtual time); :mod:`~morris.app.view` is
the display model a front end draws; :mod:`~morris.app.paths` says where state lives;
:mod:`~morris.app.errors` holds the errors of the app layers.
"""
