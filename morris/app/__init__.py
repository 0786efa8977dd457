"""What every front end of the product shares, whatever board it plays on.

:mod:`~morris.app.controller` composes a board device, the referee, the Pi's searches and the
saved game, and offers a read-only :class:`~morris.app.controller.Snapshot` with a subscriber
hook; :mod:`~morris.app.config` reads the configuration file; :mod:`~morris.app.store` keeps the
unfinished game and the finished records; :mod:`~morris.app.jobs` runs the engine's searches
beside the main loop (a process, a thread, or virtual time); :mod:`~morris.app.view` is the
display model a front end draws; :mod:`~morris.app.paths` says where state lives;
:mod:`~morris.app.errors` holds the errors of the app layers.
"""
