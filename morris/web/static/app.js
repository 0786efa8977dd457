// The companion's page: draws every state the server sends (server-sent events, reconnecting)
// and sends the buttons' presses and, on a simulated board, the taps on points. No framework,
// no build step. The board picture comes drawn from the server (one renderer: picture.py); so
// does a position of the game tapped in the move list (/api/positions, /api/render.svg). The
// texts are in strings.js.
"use strict";

const $ = (id) => document.getElementById(id);
let current = null; // the last state
let source = null; // the EventSource
let flip = localStorage.getItem("morris-flip") === "1";
let busy = false;
let browsing = null; // the ply shown from the move list (0 the start), or null: the game now
let positions = null; // /api/positions of the game as it was when a move was tapped
let drawn = 0; // the last picture asked for (an older answer is not drawn over a newer one)
// A message says something about the state it was said in: the next state that differs clears
// it (a "put a piece on d6" must not outlive d6's piece).
let messageKey = null;

function query() {
  return flip ? "?flip=1" : "";
}

// What the person sees of a state; a message said in one state is stale in another.
function stateKey(s) {
  if (!s) return "";
  return JSON.stringify([
    s.moves, s.present || s.sensed, s.turn, s.event, s.outcome, s.mode, s.level,
    s.board_setup, s.puzzle ? [s.puzzle.status, s.puzzle.left] : null, s.link,
  ]);
}

function say(text, error) {
  const message = $("message");
  message.textContent = text || "";
  message.classList.toggle("error", Boolean(error));
  messageKey = text ? stateKey(current) : null;
}

function turnText(s) {
  if (s.outcome) return s.winner ? t(`turn.wins.${s.winner}`) : t("turn.draw");
  if (s.mode === "referee" || !s.pi_color) return t(`turn.to-move.${s.turn}`);
  const turn = colourWord(s.turn);
  if (s.turn !== s.pi_color) return t("turn.yours", { turn });
  if (s.thinking) return t("turn.pi-thinking", { turn });
  return t("turn.pi-carry-out", { turn });
}

function whoText(s) {
  if (s.mode === "referee") return t("who.referee");
  return t("who.vs-pi", { human: colourWord(s.human), level: s.level });
}

// The move list, numbered as the record is ("12." White's turn, "12..." Black's first): one
// button per turn; the turn shown is marked (aria-current), the last one while the game is shown.
function renderMoves(s) {
  const moves = $("moves");
  moves.replaceChildren();
  let number = s.first_fullmove;
  let white = s.first_turn === "white";
  let item = null;
  s.moves.forEach((move, i) => {
    const ply = i + 1;
    if (white || item === null) {
      item = document.createElement("li");
      item.value = number;
      if (!white) {
        const gap = document.createElement("span");
        gap.className = "gap";
        gap.textContent = t("moves.black-first");
        item.appendChild(gap);
      }
      moves.appendChild(item);
    }
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move";
    button.dataset.ply = String(ply);
    button.textContent = move;
    button.dataset.label = white ? `${number}.` : `${number}...`;
    const shown = browsing === null ? s.moves.length : browsing;
    if (ply === shown) button.setAttribute("aria-current", "true");
    item.appendChild(button);
    if (!white) number += 1;
    white = !white;
  });
}

function render(s) {
  if (messageKey !== null && stateKey(s) !== messageKey) say("");
  current = s;
  document.body.classList.toggle("watch", s.access !== "control");
  document.body.classList.toggle("sim", Boolean(s.sim));
  if (browsing !== null && positions && !sameGame(s)) browsing = null; // the game moved on
  if (browsing === null) $("board").innerHTML = s.svg;
  showBrowse();
  $("turn").textContent = turnText(s);
  $("event").textContent = s.event || "";
  $("outcome").hidden = !s.outcome;
  $("outcome").textContent = s.outcome ? t("outcome", { outcome: s.outcome }) : "";
  $("solution").hidden = !s.solution || Boolean(s.outcome);
  $("solution").textContent = s.solution ? t("solved", { text: s.solution.text }) : "";
  $("who").textContent = whoText(s);
  $("mode-button").textContent =
    s.mode === "referee" ? t("mode.referee") : t("mode.level", { level: s.level });
  $("tap-help").hidden = !(s.sim && s.access === "control");
  for (const led of document.querySelectorAll(".led")) {
    const signal = (s.status || {})[led.dataset.led] || "off";
    led.className = `led ${signal}`;
    led.title = t("led.state", { led: t(`led.${led.dataset.led}`), signal: t(`signal.${signal}`) });
  }
  for (const colour of ["white", "black"]) {
    const onBoard = Object.values(s.pieces || {}).filter((c) => c === colour).length;
    $(`hand-${colour}`).lastElementChild.textContent =
      t("hand", { colour: colourWord(colour), in_hand: s.in_hand[colour], on_board: onBoard });
  }
  renderMoves(s);
  $("variant").textContent = t("variant", {
    variant: `variant.${s.variant}` in STRINGS ? t(`variant.${s.variant}`) : s.variant,
    flying: s.flying ? t("variant.flying") : "",
    position: s.position,
  });
  // The setup view and the remote player's taps (setup.js, remote.js) follow every state.
  document.dispatchEvent(new CustomEvent("morris:state", { detail: s }));
}

// Whether the game is still the one whose positions were fetched (the same turns so far).
function sameGame(s) {
  const before = positions.moves;
  return s.moves.length >= before.length && before.every((m, i) => s.moves[i] === m);
}

function showBrowse() {
  const box = $("browse");
  box.hidden = browsing === null;
  if (browsing === null || !current) return;
  const count = current.moves.length;
  if (browsing === 0) {
    $("browse-text").textContent = tn("browse.start", count);
    return;
  }
  const button = document.querySelector(`#moves button[data-ply="${browsing}"]`);
  const label = button ? button.dataset.label : "";
  $("browse-text").textContent = t("browse", {
    ply: browsing,
    count,
    label,
    move: current.moves[browsing - 1],
  });
}

// Show the position after turn `ply` (0: the start) of the game; the game now at its last turn.
async function showPly(ply) {
  if (!current) return;
  if (ply >= current.moves.length) {
    backToGame();
    return;
  }
  const ticket = ++drawn;
  if (!positions || !sameGame(current) || positions.moves.length !== current.moves.length) {
    try {
      const response = await fetch("/api/positions", { credentials: "same-origin" });
      const body = await response.json();
      if (!response.ok) {
        say(body.error || t("error.status", { status: response.status }), true);
        return;
      }
      positions = body;
    } catch (error) {
      say(t("no-answer"), true);
      return;
    }
  }
  if (ticket !== drawn || ply >= positions.positions.length) return;
  const params = new URLSearchParams({ position: positions.positions[ply], variant: positions.variant });
  if (ply > 0) params.set("last", positions.moves[ply - 1]);
  if (flip) params.set("flip", "1");
  try {
    const response = await fetch(`/api/render.svg?${params}`, { credentials: "same-origin" });
    if (!response.ok) {
      const body = await response.json();
      say(body.error || t("error.status", { status: response.status }), true);
      return;
    }
    const svg = await response.text();
    if (ticket !== drawn) return;
    browsing = ply;
    $("board").innerHTML = svg;
    renderMoves(current);
    showBrowse();
  } catch (error) {
    say(t("no-answer"), true);
  }
}

function backToGame() {
  drawn += 1; // a past position still on its way is not drawn over the game
  browsing = null;
  if (current) render(current);
}

function setConnected(state) {
  const conn = $("conn");
  conn.className = `conn ${state === "live" ? "up" : "down"}`;
  conn.textContent = t(`conn.${state}`);
  shell.reachable(state !== "unreachable");
}

// The stream broke: is the board still there (reconnecting) or away (not reachable)?
async function lost() {
  setConnected("reconnecting");
  if (!(await shell.probe()) && source && source.readyState !== EventSource.OPEN) {
    setConnected("unreachable");
  }
}

function connect() {
  if (source) source.close();
  source = new EventSource(`/api/events${query()}`);
  source.addEventListener("open", () => setConnected("live"));
  source.addEventListener("state", (event) => {
    setConnected("live");
    render(JSON.parse(event.data));
  });
  // What the board says aloud, in the page's language (speech.js says it when asked to).
  source.addEventListener("announcement", (event) => {
    document.dispatchEvent(new CustomEvent("morris:announcement", { detail: JSON.parse(event.data) }));
  });
  source.addEventListener("error", () => {
    lost();
    // The browser retries by itself unless the server refused the stream (closed): then so do we.
    if (source.readyState === EventSource.CLOSED) {
      setTimeout(connect, 2000);
      fetchState();
    }
  });
}

async function fetchState() {
  try {
    const response = await fetch(`/api/state${query()}`, { credentials: "same-origin" });
    const body = await response.json();
    if (!response.ok) {
      say(body.error || t("error.status", { status: response.status }), true);
      return;
    }
    render(body);
  } catch (error) {
    setConnected("unreachable");
  }
}

async function post(path) {
  if (busy) return null;
  busy = true;
  try {
    const response = await fetch(`${path}${query()}`, {
      method: "POST",
      credentials: "same-origin",
    });
    const body = await response.json();
    if (!response.ok) {
      say(body.error || t("error.status", { status: response.status }), true);
      return null;
    }
    render(body);
    return body;
  } catch (error) {
    say(t("no-answer"), true);
    return null;
  } finally {
    busy = false;
  }
}

// A tap on a point of a simulated board: the board draws the piece put or lifted at once (the
// sensors' reading), so no message repeats it.
async function tap(point) {
  if (!current || !current.sim || current.access !== "control") return;
  if (browsing !== null) {
    say(t("browse.no-taps"), true);
    return;
  }
  const present = new Set(current.present || []);
  const action = present.has(point) ? "lift" : "place";
  await post(`/api/sim/${action}/${point}`);
}

document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("[data-press]")) {
    button.addEventListener("click", async () => {
      const name = button.dataset.press;
      if (await post(`/api/press/${name}`)) say(t(`pressed.${name}`));
    });
  }
  $("flip").addEventListener("click", () => {
    flip = !flip;
    localStorage.setItem("morris-flip", flip ? "1" : "0");
    if (browsing !== null) showPly(browsing);
    connect();
  });
  $("board").addEventListener("click", (event) => {
    const target = event.target.closest("[data-point]");
    if (target) tap(target.dataset.point);
  });
  $("moves").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-ply]");
    if (button) showPly(Number(button.dataset.ply));
  });
  $("browse-back").addEventListener("click", backToGame);
  document.addEventListener("keydown", (event) => {
    if (!current || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    const shown = browsing === null ? current.moves.length : browsing;
    const keys = { ArrowLeft: shown - 1, ArrowRight: shown + 1, Home: 0, End: current.moves.length };
    if (event.key in keys && current.moves.length > 0) {
      event.preventDefault();
      showPly(Math.max(0, Math.min(keys[event.key], current.moves.length)));
    }
  });
  connect();
});
