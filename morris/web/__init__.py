"""The web companion: the game on a phone, beside the board (``morris run --web``,
``morris sim --web``).

A Starlette app (:mod:`morris.web.app`) served by uvicorn on a thread of its own
(:mod:`morris.web.server`), talking to the controller only through a
:class:`~morris.web.host.Host` (:mod:`morris.web.host`): the snapshot, the subscriber hook and
the commands the buttons give, run on the controller's own thread. The board picture is
:mod:`morris.web.picture`; the page's files are in ``morris/web/static`` (no CDN, no build step).
Nothing here is imported unless the companion is asked for.
"""
