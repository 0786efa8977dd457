// Every text the board page and the review page write (app.js, review.js, puzzle.js, setup.js,
// remote.js, shell.js), in one table: t("key", {name: value}) fills in the {name} places. The
// translations take their catalogs from here; the texts in index.html and review.html are the
// same words, as the page starts.
"use strict";

const STRINGS = {
  // The connection (shell.js, app.js).
  "conn.connecting": "connecting…",
  "conn.live": "live",
  "conn.reconnecting": "reconnecting…",
  "conn.unreachable": "the board is not reachable",
  "offline":
    "The board is not reachable: it is off, or this device is not on its network. " +
    "The page reconnects by itself when it is back.",
  "no-answer": "the board does not answer",
  "error.status": "error {status}",

  // The board page (app.js).
  "turn.wins": "{winner} wins",
  "turn.draw": "draw",
  "turn.to-move": "{turn} to move",
  "turn.yours": "your move ({turn})",
  "turn.pi-thinking": "the Pi ({turn}) is thinking…",
  "turn.pi-carry-out": "the Pi ({turn}): carry out its move",
  "who.referee": "referee: two players",
  "who.vs-pi": "you ({human}) vs the Pi, level {level}",
  "mode.referee": "Mode: referee",
  "mode.level": "Level {level}",
  "outcome": "Game over: {outcome}",
  "solved": "Solved: {text}",
  "hand": "{colour}: {in_hand} in hand, {on_board} on the board",
  "pressed": "pressed {button}",
  "moves.black-first": "…",
  "browse": "Turn {ply} of {count}: {label} {move}, an earlier position (the game goes on)",
  "browse.start": "The start of the game, an earlier position ({count} turns follow)",
  "browse.back": "Back to the game",
  "browse.no-taps": "the board shows an earlier position: back to the game first",
  "variant": "{variant}{flying} · {position}",
  "variant.flying": ", flying",

  // Puzzles (puzzle.js).
  "puzzle.button": "Puzzle",
  "puzzle.wins-in": "wins in {n}",
  "puzzle.wins-in.label": "wins in",
  "puzzle.started": "puzzle: {title}: set it up as the lights show",
  "puzzle.used.hints": "{n} hint(s)",
  "puzzle.used.takebacks": "{n} takeback(s)",
  "puzzle.failed": "Puzzle failed at {turn}: {why}{keep}{extra}",
  "puzzle.would-win": "; {moves} would have won",
  "puzzle.or": " or ",
  "puzzle.playing": "Puzzle: {title} · {left} turn(s) left{extra}",
  "puzzle.status": "Puzzle: {title} · {status}{extra}",

  // Position setup (setup.js).
  "setup.open": "Set up",
  "setup.label": "set up a position",
  "setup.title": "Set up a position",
  "setup.help":
    "Tap a point: empty, white, black. The lights then show the person at the board where to " +
    "put and take pieces.",
  "setup.side": "{colour} to move",
  "setup.in-hand": "{colour} in hand ",
  "setup.clear": "Empty board",
  "setup.cancel": "Cancel",
  "setup.send": "Set up",
  "setup.started": "set up: put a piece where a light is on, take away those blinking fast",

  // The remote opponent (remote.js).
  "remote.who-player": "you ({colour}) vs the board ({board})",
  "remote.waiting-turn": "your turn {move}: the board carries it out…",
  "remote.your-move": "your move ({turn}): tap it",
  "remote.boards-move": "the board's move ({turn})",
  "remote.picked": "picked {points}",
  "remote.picked-next": "picked {points}: tap where next",
  "remote.other-board": "the other board",
  "remote.remote-player": "the remote player",
  "remote.who-board": "you ({human}) vs {far} ({colour})",
  "remote.fars-move": "{far}'s move ({turn})",
  "remote.waiting-for": "waiting for {far}…",
  "remote.connected": "{far} is connected",
  "remote.sent": "sent {move}: the board shows it",
  "remote.wait": "wait: your last turn is being carried out",
  "remote.not-yours": "it is the board's turn",
  "remote.no-turn": "{points} is no turn of yours",

  // The review page (review.js).
  "review.win-in": "win in {n}",
  "review.loss-in": "loss in {n}",
  "review.won": "won",
  "review.drawn": "drawn",
  "review.lost": "lost",
  "review.draw": "draw",
  "review.wdl": "{value} in {wins_in}",
  "review.players": "{white} vs {black}",
  "review.unreadable": "cannot be read: {error}",
  "review.game-line": "{date} · {result} · {moves} turns",
  "review.running": "The engine is reviewing the game: {done} of {total} positions…",
  "review.throw.solution": "{before} → {after}, by the solved game",
  "review.throw.tables": "{before} → {after}, by the endgame tables",
  "review.throw.engine":
    "{before} → {after}, the engine's judgement (a fall of {threshold} pieces or more)",
  "review.title": "{white} vs {black}: {result}",
  "review.turn": "Turn {ply} of {count}: {label} {move} ({mover})",
  "review.start": "The start ({count} turns follow)",
  "review.first-threw": "The first turn that threw a result away",
  "review.threw-too": "This turn threw a result away too",
  "review.mark": "{which}: {why}.",
  "review.first-mistake": "First result thrown away: turn {ply}, {label} {move} ({mover}).",
  "review.no-mistake": "No turn threw a result away.",
  "review.chart-waiting": "The game's graph follows when the engine is done.",
  "review.variant": "{variant} · {position}",
};

// The text of `key` with its {places} filled in from `vars` (the key itself if it is unknown).
function t(key, vars = {}) {
  const text = key in STRINGS ? STRINGS[key] : key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}
