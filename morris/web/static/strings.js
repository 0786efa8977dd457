// Every text the board page and the review page show (index.html, review.html, app.js, review.js,
// puzzle.js, setup.js, remote.js, shell.js, speech.js), in one table, and the page's language.
//
// Each text is an English message id of the product's gettext catalogs (morris/locale), marked
// N_("...") or, with a number, NP_("{n} hint", "{n} hints"): Babel's javascript extractor finds
// them there ([tool.babel] in pyproject.toml; docs/TRANSLATING.md). The server hands the page its
// language's translations in the page itself (<script type="application/json" id="catalog">,
// morris/web/language.py): t("key", {name: value}) is the key's text in the page's language with
// its {name} places filled in; tn("key", n, {...}) picks the plural form for n by the catalog's
// own rule. The page's language is the one the server chose (the selector's choice, else the
// browser's Accept-Language); the selector keeps a new choice in localStorage and in a cookie
// the server reads, so the texts the server renders (the event line, what is said aloud) follow.
"use strict";

// Marks for the extractor: the text itself (looked up when shown).
const N_ = (text) => text;
const NP_ = (singular, plural) => [singular, plural];

const STRINGS = {
  // The header and the connection (index.html, review.html, shell.js, app.js).
  "title.board": N_("morris: the board"),
  "title.review": N_("morris: review"),
  "nav.pages": N_("pages"),
  "nav.board": N_("Board"),
  "nav.review": N_("Review"),
  "lang.label": N_("language"),
  "conn.title": N_("connection"),
  "conn.connecting": N_("connecting…"),
  "conn.live": N_("live"),
  "conn.reconnecting": N_("reconnecting…"),
  "conn.unreachable": N_("the board is not reachable"),
  "offline": N_(
    "The board is not reachable: it is off, or this device is not on its network. " +
    "The page reconnects by itself when it is back."),
  "no-answer": N_("the board does not answer"),
  "error.status": N_("error {status}"),

  // Speech (speech.js).
  "speech.button": N_("Speak"),
  "speech.title": N_("say the board's announcements aloud on this device"),
  "speech.on": N_("speech on"),
  "speech.none": N_("this browser cannot speak"),

  // The board page (index.html, app.js).
  "colour.white": N_("white"),
  "colour.black": N_("black"),
  "turn.wins.white": N_("white wins"),
  "turn.wins.black": N_("black wins"),
  "turn.draw": N_("draw"),
  "turn.to-move.white": N_("white to move"),
  "turn.to-move.black": N_("black to move"),
  "turn.yours": N_("your move ({turn})"),
  "turn.pi-thinking": N_("the Pi ({turn}) is thinking…"),
  "turn.pi-carry-out": N_("the Pi ({turn}): carry out its move"),
  "who.referee": N_("referee: two players"),
  "who.vs-pi": N_("you ({human}) vs the Pi, level {level}"),
  "mode.referee": N_("Mode: referee"),
  "mode.level": N_("Level {level}"),
  "outcome": N_("Game over: {outcome}"),
  "solved": N_("Solved: {text}"),
  "solved.title": N_("the solved game's value of the position"),
  "hand": N_("{colour}: {in_hand} in hand, {on_board} on the board"),
  // TRANSLATORS: the board's button just pressed on the page ("new game", "takeback", ...).
  "pressed.new": N_("pressed new"),
  "pressed.takeback": N_("pressed takeback"),
  "pressed.hint": N_("pressed hint"),
  "pressed.mode": N_("pressed mode"),
  "moves.black-first": "…",
  "browse": N_("Turn {ply} of {count}: {label} {move}, an earlier position (the game goes on)"),
  "browse.start": NP_(
    "The start of the game, an earlier position ({n} turn follows)",
    "The start of the game, an earlier position ({n} turns follow)"),
  "browse.back": N_("Back to the game"),
  "browse.no-taps": N_("the board shows an earlier position: back to the game first"),
  "board.label": N_("the board"),
  "tap-help": N_("Tap a point to put a piece there, or to lift the piece there."),
  "leds.label": N_("status lights"),
  "led.turn": N_("turn"),
  "led.thinking": N_("thinking"),
  "led.error": N_("error"),
  "led.game_over": N_("game over"),
  "signal.off": N_("off"),
  "signal.on": N_("on"),
  "signal.slow": N_("blinking"),
  "signal.fast": N_("blinking fast"),
  "led.state": N_("{led}: {signal}"),
  "controls.label": N_("buttons"),
  "button.new": N_("New game"),
  "button.takeback": N_("Takeback"),
  "button.hint": N_("Hint"),
  "button.mode": N_("Mode"),
  "button.flip": N_("Flip"),
  "pieces.label": N_("pieces"),
  "moves.label": N_("moves"),
  "moves.title": N_("Moves"),
  "variant": N_("{variant}{flying} · {position}"),
  "variant.flying": N_(", flying"),
  "variant.standard": N_("Nine men's morris"),
  "variant.twelve": N_("Twelve men's morris"),
  "variant.morabaraba": N_("Morabaraba"),
  "variant.lasker": N_("Lasker morris"),
  "variant.six": N_("Six men's morris"),

  // Puzzles (puzzle.js).
  "puzzle.button": N_("Puzzle"),
  "puzzle.wins-in": NP_("wins in {n}", "wins in {n}"),
  "puzzle.wins-in.label": N_("the puzzle's length"),
  "puzzle.started": N_("puzzle: {title}: set it up as the lights show"),
  "puzzle.used.hints": NP_("{n} hint", "{n} hints"),
  "puzzle.used.takebacks": NP_("{n} takeback", "{n} takebacks"),
  "puzzle.failed": N_("Puzzle failed at {turn}: {why}{keep}{extra}"),
  "puzzle.would-win": N_("; {moves} would have won"),
  "puzzle.or": N_(" or "),
  "puzzle.left": NP_("{n} turn left", "{n} turns left"),
  "puzzle.playing": N_("Puzzle: {title} · {left}{extra}"),
  "puzzle.status": N_("Puzzle: {title} · {status}{extra}"),
  "puzzle.status.solved": N_("solved"),
  "puzzle.status.failed": N_("failed"),
  "puzzle.status.setup": N_("being set up"),

  // Position setup (setup.js).
  "setup.open": N_("Set up"),
  "setup.label": N_("set up a position"),
  "setup.title": N_("Set up a position"),
  "setup.help": N_(
    "Tap a point: empty, white, black. The lights then show the person at the board where to " +
    "put and take pieces."),
  "setup.side.white": N_("white to move"),
  "setup.side.black": N_("black to move"),
  "setup.in-hand": N_("in hand ({colour})"),
  "setup.clear": N_("Empty board"),
  "setup.cancel": N_("Cancel"),
  "setup.send": N_("Set up"),
  "setup.started": N_("set up: put a piece where a light is on, take away those blinking fast"),

  // The remote opponent (remote.js).
  "remote.who-player": N_("you ({colour}) vs the board ({board})"),
  "remote.waiting-turn": N_("your turn {move}: the board carries it out…"),
  "remote.your-move": N_("your move ({turn}): tap it"),
  "remote.boards-move": N_("the board's move ({turn})"),
  "remote.picked": N_("picked {points}"),
  "remote.picked-next": N_("picked {points}: tap where next"),
  "remote.who-board.board": N_("you ({human}) vs the other board ({colour})"),
  "remote.who-board.page": N_("you ({human}) vs the remote player ({colour})"),
  "remote.fars-move.board": N_("the other board's move ({turn})"),
  "remote.fars-move.page": N_("the remote player's move ({turn})"),
  "remote.waiting-for.board": N_("waiting for the other board…"),
  "remote.waiting-for.page": N_("waiting for the remote player…"),
  "remote.connected.board": N_("the other board is connected"),
  "remote.connected.page": N_("the remote player is connected"),
  "remote.sent": N_("sent {move}: the board shows it"),
  "remote.wait": N_("wait: your last turn is being carried out"),
  "remote.not-yours": N_("it is the board's turn"),
  "remote.no-turn": N_("{points} is no turn of yours"),

  // The review page (review.html, review.js).
  "review.games.label": N_("saved games"),
  "review.games": N_("Saved games"),
  "review.games-empty": N_("No saved games yet: a finished game is saved here."),
  "review.head.label": N_("the game's title"),
  "review.view.label": N_("the board and the game's graph"),
  "review.chart.label": N_("the game's graph: tap a turn to show it"),
  "review.game.label": N_("the game"),
  "review.steps.label": N_("step through the game"),
  "review.first.label": N_("the start"),
  "review.first.title": N_("the start (Home)"),
  "review.back.label": N_("one turn back"),
  "review.back.title": N_("one turn back (←)"),
  "review.next.label": N_("one turn on"),
  "review.next.title": N_("one turn on (→)"),
  "review.last.label": N_("the end"),
  "review.last.title": N_("the end (End)"),
  "review.before": N_("before"),
  "review.after": N_("after"),
  "review.score": N_("score"),
  "review.result": N_("result"),
  "review.solved": N_("solved"),
  "review.best": N_("engine's turn"),
  "review.downloads.label": N_("downloads"),
  "review.dl-record": N_("Record"),
  "review.dl-chart": N_("Graph"),
  "review.dl-chart.title": N_("the game's graph as PNG"),
  "review.turns": N_("Turns"),
  "review.help": N_(
    "Scores are the mover's, in pieces (win/loss N: N turns to the end with best play), by the " +
    "built-in engine. Win/draw/loss come from the endgame tables where they know the position; " +
    "\"solved\" is the solved game's value (\"white wins in 12\": turns to the end with perfect " +
    "play) where it covers the position. The first turn that threw a result away is marked ??, " +
    "later ones ?. The graph is White's score over the game (light: White stands better, dark: " +
    "Black), the band under it the result with perfect play where it is known (light: White " +
    "wins, grey: drawn, dark: Black wins); tap it to show a turn."),
  "review.win-in": NP_("win in {n}", "win in {n}"),
  "review.loss-in": NP_("loss in {n}", "loss in {n}"),
  "review.won": N_("won"),
  "review.drawn": N_("drawn"),
  "review.lost": N_("lost"),
  "review.draw": N_("draw"),
  "review.players": N_("{white} vs {black}"),
  "review.unreadable": N_("cannot be read: {error}"),
  "review.game-line": NP_("{date} · {result} · {n} turn", "{date} · {result} · {n} turns"),
  "review.running": NP_(
    "The engine is reviewing the game: {done} of {n} position…",
    "The engine is reviewing the game: {done} of {n} positions…"),
  "review.throw.solution": N_("{before} → {after}, by the solved game"),
  "review.throw.tables": N_("{before} → {after}, by the endgame tables"),
  "review.throw.engine": N_(
    "{before} → {after}, the engine's judgement (a fall of {threshold} pieces or more)"),
  "review.title": N_("{white} vs {black}: {result}"),
  "review.turn": N_("Turn {ply} of {count}: {label} {move} ({mover})"),
  "review.start": NP_("The start ({n} turn follows)", "The start ({n} turns follow)"),
  "review.first-threw": N_("The first turn that threw a result away"),
  "review.threw-too": N_("This turn threw a result away too"),
  "review.mark": N_("{which}: {why}."),
  "review.first-mistake": N_("First result thrown away: turn {ply}, {label} {move} ({mover})."),
  "review.no-mistake": N_("No turn threw a result away."),
  "review.chart-waiting": N_("The game's graph follows when the engine is done."),
  "review.variant": N_("{variant} · {position}"),
};

// The catalog the server put into the page (morris/web/language.py): lang, speech (a BCP-47
// tag), languages (code -> its own name), messages (id -> text, or a plural's forms) and plural
// (the form of each number below its length).
const CATALOG = (() => {
  const node = document.getElementById("catalog");
  try {
    return JSON.parse(node ? node.textContent : "{}");
  } catch (error) {
    return {};
  }
})();
const LANG = CATALOG.lang || "en";
const LANG_KEY = "morris-lang";

function fill(text, vars) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}

// The form number of the catalog's plural rule for n (numbers above the table by their last two
// digits, as every gettext rule in use repeats).
function pluralForm(n) {
  const table = CATALOG.plural || [];
  const k = Math.abs(Math.trunc(Number(n)));
  if (!table.length) return k === 1 ? 0 : 1;
  if (k < table.length) return table[k];
  return table[100 + (k % 100)] ?? table[table.length - 1];
}

function translated(key) {
  const id = key in STRINGS ? STRINGS[key] : key;
  const id0 = Array.isArray(id) ? id[0] : id;
  const found = (CATALOG.messages || {})[id0];
  return { id, found };
}

// The text of `key` in the page's language with its {places} filled in from `vars` (the key
// itself if it is unknown).
function t(key, vars = {}) {
  const { id, found } = translated(key);
  if (Array.isArray(id)) return tn(key, vars.n ?? 1, vars);
  return fill(typeof found === "string" && found ? found : id, vars);
}

// The plural message `key` for the number n ({n} in it), in the page's language.
function tn(key, n, vars = {}) {
  const { id, found } = translated(key);
  const forms = Array.isArray(found) ? found : Array.isArray(id) ? id : [id, id];
  const form = Array.isArray(found) ? pluralForm(n) : n === 1 ? 0 : 1;
  const text = forms[Math.min(form, forms.length - 1)] || forms[0];
  return fill(text, { ...vars, n });
}

// A colour's word ("white" -> "valkoinen").
function colourWord(colour) {
  return `colour.${colour}` in STRINGS ? t(`colour.${colour}`) : String(colour || "");
}

// The page's own texts: data-t (the text), data-t-title, data-t-aria-label, data-t-placeholder.
function translatePage(root = document) {
  document.documentElement.lang = LANG;
  if (document.body && document.body.dataset.title) document.title = t(document.body.dataset.title);
  for (const node of root.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  const attributes = [["title", "tTitle"], ["aria-label", "tAriaLabel"], ["placeholder", "tPlaceholder"]];
  for (const [attribute, data] of attributes) {
    for (const node of root.querySelectorAll(`[data-t-${attribute}]`)) {
      node.setAttribute(attribute, t(node.dataset[data]));
    }
  }
}

// Remember the language chosen and load the page in it (the server renders its texts then).
function chooseLanguage(code) {
  if (!(code in (CATALOG.languages || {}))) return;
  try {
    localStorage.setItem(LANG_KEY, code);
  } catch (error) {
    // storage off: the cookie still carries it
  }
  document.cookie = `morris_lang=${code}; path=/; max-age=${400 * 24 * 3600}; samesite=strict`;
  location.reload();
}

// The selector: the languages by their own names, the page's one chosen.
function languageSelector() {
  const select = document.createElement("select");
  select.id = "lang";
  select.className = "lang";
  select.dataset.tAriaLabel = "lang.label";
  select.setAttribute("aria-label", t("lang.label"));
  for (const [code, name] of Object.entries(CATALOG.languages || {})) {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = name;
    option.selected = code === LANG;
    select.append(option);
  }
  select.addEventListener("change", () => chooseLanguage(select.value));
  return select;
}

// A language remembered here that the server did not get (its cookie gone): hand it over once.
// (Once a session: a browser that keeps no cookie must not reload for ever.)
(() => {
  try {
    const stored = localStorage.getItem(LANG_KEY);
    const languages = CATALOG.languages || {};
    if (stored && stored !== LANG && stored in languages && !sessionStorage.getItem("morris-lang-sent")) {
      sessionStorage.setItem("morris-lang-sent", "1");
      chooseLanguage(stored);
    }
  } catch (error) {
    // storage off: the page stays in the language the server chose
  }
})();

document.addEventListener("DOMContentLoaded", () => {
  translatePage();
  const header = document.querySelector("header");
  if (header && CATALOG.languages) header.append(languageSelector());
});
