// The companion's page: draws every state the server sends (server-sent events, reconnecting)
// and sends the buttons' presses and, on a simulated board, the taps on points. No framework,
// no build step. The board picture comes drawn from the server (one renderer: picture.py).
"use strict";

const $ = (id) => document.getElementById(id);
let current = null; // the last state
let source = null; // the EventSource
let flip = localStorage.getItem("morris-flip") === "1";
let busy = false;

function query() {
  return flip ? "?flip=1" : "";
}

function say(text, error) {
  const message = $("message");
  message.textContent = text || "";
  message.classList.toggle("error", Boolean(error));
}

function turnText(s) {
  if (s.outcome) return s.winner ? `${s.winner} wins` : "draw";
  if (s.mode === "referee" || !s.pi_color) return `${s.turn} to move`;
  if (s.turn !== s.pi_color) return `your move (${s.turn})`;
  if (s.thinking) return `the Pi (${s.turn}) is thinking…`;
  return `the Pi (${s.turn}): carry out its move`;
}

function whoText(s) {
  if (s.mode === "referee") return "referee: two players";
  return `you (${s.human}) vs the Pi, level ${s.level}`;
}

function render(s) {
  current = s;
  document.body.classList.toggle("watch", s.access !== "control");
  document.body.classList.toggle("sim", Boolean(s.sim));
  $("board").innerHTML = s.svg;
  $("turn").textContent = turnText(s);
  $("event").textContent = s.event || "";
  $("outcome").hidden = !s.outcome;
  $("outcome").textContent = s.outcome ? `Game over: ${s.outcome}` : "";
  $("solution").hidden = !s.solution || Boolean(s.outcome);
  $("solution").textContent = s.solution ? `Solved: ${s.solution.text}` : "";
  $("who").textContent = whoText(s);
  $("mode-button").textContent = s.mode === "referee" ? "Mode: referee" : `Level ${s.level}`;
  $("tap-help").hidden = !(s.sim && s.access === "control");
  for (const led of document.querySelectorAll(".led")) {
    const signal = (s.status || {})[led.dataset.led] || "off";
    led.className = `led ${signal}`;
    led.title = `${led.dataset.led}: ${signal}`;
  }
  for (const colour of ["white", "black"]) {
    const onBoard = Object.values(s.pieces || {}).filter((c) => c === colour).length;
    $(`hand-${colour}`).lastElementChild.textContent =
      `${colour}: ${s.in_hand[colour]} in hand, ${onBoard} on the board`;
  }
  const moves = $("moves");
  moves.replaceChildren();
  let number = s.first_fullmove;
  let white = s.first_turn === "white";
  let item = null;
  for (const move of s.moves) {
    if (white || item === null) {
      item = document.createElement("li");
      item.value = number;
      item.textContent = white ? move : `… ${move}`;
      moves.appendChild(item);
    } else {
      item.textContent += ` ${move}`;
    }
    if (!white) number += 1;
    white = !white;
  }
  $("variant").textContent = `${s.variant}${s.flying ? ", flying" : ""} · ${s.position}`;
  // The setup view and the remote player's taps (setup.js, remote.js) follow every state.
  document.dispatchEvent(new CustomEvent("morris:state", { detail: s }));
}

function setConnected(up) {
  const conn = $("conn");
  conn.className = `conn ${up ? "up" : "down"}`;
  conn.textContent = up ? "live" : "reconnecting…";
}

function connect() {
  if (source) source.close();
  source = new EventSource(`/api/events${query()}`);
  source.addEventListener("open", () => setConnected(true));
  source.addEventListener("state", (event) => {
    setConnected(true);
    render(JSON.parse(event.data));
  });
  source.addEventListener("error", () => {
    setConnected(false);
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
      say(body.error || `error ${response.status}`, true);
      return;
    }
    render(body);
  } catch (error) {
    setConnected(false);
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
      say(body.error || `error ${response.status}`, true);
      return null;
    }
    render(body);
    return body;
  } catch (error) {
    say("the board does not answer", true);
    return null;
  } finally {
    busy = false;
  }
}

async function tap(point) {
  if (!current || !current.sim || current.access !== "control") return;
  const present = new Set(current.present || []);
  const action = present.has(point) ? "lift" : "place";
  const done = await post(`/api/sim/${action}/${point}`);
  if (done) say(action === "place" ? `put a piece on ${point}` : `lifted the piece on ${point}`);
}

document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("[data-press]")) {
    button.addEventListener("click", async () => {
      const name = button.dataset.press;
      if (await post(`/api/press/${name}`)) say(`pressed ${name}`);
    });
  }
  $("flip").addEventListener("click", () => {
    flip = !flip;
    localStorage.setItem("morris-flip", flip ? "1" : "0");
    connect();
  });
  $("board").addEventListener("click", (event) => {
    const target = event.target.closest("[data-point]");
    if (target) tap(target.dataset.point);
  });
  connect();
});
