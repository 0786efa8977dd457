// The review page: the saved games listed; one opened is stepped through on the board picture
// (buttons, arrow keys, the turn list), with each turn's score and win/draw/loss before and after
// and the first turn that threw a result away marked. The pictures come drawn from the server
// (/api/render.svg: one renderer), the review from /api/games/{id}/review. No build step.
"use strict";

const $ = (id) => document.getElementById(id);
const MATE = 100000;
const MATE_BOUND = MATE - 1000;
const flip = localStorage.getItem("morris-flip") === "1";
let review = null; // the review (or its outline while the engine works)
let gameId = null;
let index = 0; // the position shown: 0 the start, k after the k-th turn
let poll = null;
let drawn = 0; // the last picture asked for (an older answer is not drawn over a newer one)

function say(text, error) {
  const message = $("message");
  message.textContent = text || "";
  message.classList.toggle("error", Boolean(error));
}

function formatScore(score) {
  if (score === null || score === undefined) return "-";
  if (Math.abs(score) > MATE_BOUND) {
    return `${score > 0 ? "win" : "loss"} in ${MATE - Math.abs(score)}`;
  }
  const pieces = (score / 100).toFixed(2);
  return score >= 0 ? `+${pieces}` : pieces;
}

function formatSolved(value) {
  return value ? value.text : "-";
}

function formatWdl(wdl) {
  if (!wdl) return "-";
  if (wdl.source === "end") return { win: "won", draw: "drawn", loss: "lost" }[wdl.value];
  return wdl.value === "draw" ? "draw" : `${wdl.value} in ${wdl.distance}`;
}

function gameName(game) {
  const tags = game.tags || {};
  const white = tags.White || "white";
  const black = tags.Black || "black";
  return `${white} vs ${black}`;
}

async function getJson(url) {
  const response = await fetch(url, { credentials: "same-origin" });
  let body = null;
  try {
    body = await response.json();
  } catch (error) {
    body = { error: `error ${response.status}` };
  }
  return { status: response.status, ok: response.ok, body };
}

async function loadGames() {
  let answer;
  try {
    answer = await getJson("/api/games");
  } catch (error) {
    say("the board does not answer", true);
    return;
  }
  if (!answer.ok) {
    say(answer.body.error || `error ${answer.status}`, true);
    return;
  }
  const list = $("games");
  list.replaceChildren();
  const games = answer.body.games || [];
  $("games-empty").hidden = games.length > 0;
  for (const game of games) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.game = game.id;
    const sub = game.error
      ? `cannot be read: ${game.error}`
      : `${game.date || ""} · ${game.result} · ${game.moves} turns`;
    button.innerHTML = "<span></span><span class=\"sub\"></span>";
    button.firstChild.textContent = gameName(game);
    button.lastChild.textContent = sub;
    button.disabled = Boolean(game.error);
    button.addEventListener("click", () => openGame(game.id));
    item.appendChild(button);
    list.appendChild(item);
  }
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted && games.some((g) => g.id === wanted)) openGame(wanted);
}

async function openGame(id) {
  if (poll) clearTimeout(poll);
  gameId = id;
  review = null;
  index = 0;
  for (const button of document.querySelectorAll("#games button")) {
    if (button.dataset.game === id) button.setAttribute("aria-current", "true");
    else button.removeAttribute("aria-current");
  }
  history.replaceState(null, "", `/review?game=${encodeURIComponent(id)}`);
  await fetchReview(id, true);
}

async function fetchReview(id, first) {
  let answer;
  try {
    answer = await getJson(`/api/games/${encodeURIComponent(id)}/review?wait=0`);
  } catch (error) {
    say("the board does not answer", true);
    return;
  }
  if (id !== gameId) return; // another game was opened meanwhile
  if (!answer.ok) {
    say(answer.body.error || `error ${answer.status}`, true);
    return;
  }
  const body = answer.body;
  review = body;
  if (first) {
    index = body.turns.length;
    $("game").hidden = false;
    say("");
  }
  if (body.status === "running") {
    const total = body.total || body.turns.length + 1;
    $("progress").textContent = `The engine is reviewing the game: ${body.done} of ${total} positions…`;
    poll = setTimeout(() => fetchReview(id, false), 700);
  } else {
    $("progress").textContent = "";
  }
  show();
}

function positionShown() {
  return index === 0 ? review.start : review.turns[index - 1].after;
}

function pictureQuery() {
  const params = new URLSearchParams({ position: positionShown() });
  const variant = (review.tags || {}).Variant;
  if (variant) params.set("variant", variant);
  if (index > 0) params.set("last", review.turns[index - 1].move);
  if (flip) params.set("flip", "1");
  return params.toString();
}

async function drawBoard() {
  const ticket = ++drawn;
  try {
    const response = await fetch(`/api/render.svg?${pictureQuery()}`, { credentials: "same-origin" });
    if (!response.ok) {
      const body = await response.json();
      say(body.error || `error ${response.status}`, true);
      return;
    }
    const svg = await response.text();
    if (ticket === drawn) $("board").innerHTML = svg;
  } catch (error) {
    say("the board does not answer", true);
  }
}

function describeThrow(turn) {
  if (turn.threw === "solution") {
    return `${formatSolved(turn.solution_before)} → ${formatSolved(turn.solution_after)}, by the solved game`;
  }
  if (turn.threw === "tables") {
    return `${formatWdl(turn.wdl_before)} → ${formatWdl(turn.wdl_after)}, by the endgame tables`;
  }
  const threshold = ((review.engine || {}).threshold || 200) / 100;
  return (
    `${formatScore(turn.score_before)} → ${formatScore(turn.score_after)}, ` +
    `the engine's judgement (a fall of ${threshold} pieces or more)`
  );
}

function show() {
  if (!review) return;
  const turns = review.turns;
  index = Math.max(0, Math.min(index, turns.length));
  drawBoard();
  const turn = index > 0 ? turns[index - 1] : null;
  const tags = review.tags || {};
  $("game-title").textContent = `${tags.White || "white"} vs ${tags.Black || "black"}: ${review.result}`;
  $("turn").textContent = turn
    ? `Turn ${index} of ${turns.length}: ${turn.label} ${turn.move} (${turn.mover})`
    : `The start (${turns.length} turns follow)`;
  $("score-before").textContent = turn ? formatScore(turn.score_before) : "-";
  $("score-after").textContent = turn ? formatScore(turn.score_after) : "-";
  $("wdl-before").textContent = turn ? formatWdl(turn.wdl_before) : "-";
  $("wdl-after").textContent = turn ? formatWdl(turn.wdl_after) : "-";
  $("solved-before").textContent = turn ? formatSolved(turn.solution_before) : "-";
  $("solved-after").textContent = turn ? formatSolved(turn.solution_after) : "-";
  $("best").textContent = turn && turn.best ? turn.best : "-";
  const mark = $("mark");
  mark.hidden = !(turn && turn.threw);
  if (turn && turn.threw) {
    const which = turn.mistake
      ? "The first turn that threw a result away"
      : "This turn threw a result away too";
    mark.textContent = `${which}: ${describeThrow(turn)}.`;
  }
  const summary = $("summary");
  if (review.status === "running") {
    summary.textContent = "";
  } else if (review.first_mistake) {
    const first = turns[review.first_mistake - 1];
    summary.textContent = `First result thrown away: turn ${first.ply}, ${first.label} ${first.move} (${first.mover}).`;
  } else {
    summary.textContent = "No turn threw a result away.";
  }
  $("first").disabled = $("back").disabled = index === 0;
  $("next").disabled = $("last").disabled = index === turns.length;
  const query = pictureQuery();
  const stem = `${gameId}-turn-${index}`;
  $("dl-record").href = `/api/games/${encodeURIComponent(gameId)}`;
  $("dl-record").setAttribute("download", `${gameId}.txt`);
  $("dl-svg").href = `/api/render.svg?${query}`;
  $("dl-svg").setAttribute("download", `${stem}.svg`);
  $("dl-png").href = `/api/render.png?${query}`;
  $("dl-png").setAttribute("download", `${stem}.png`);
  $("variant").textContent = `${tags.Variant || "standard"} · ${positionShown()}`;
  const list = $("turns");
  if (list.childElementCount !== turns.length || list.dataset.status !== review.status) {
    list.replaceChildren();
    list.dataset.status = review.status;
    for (const t of turns) {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.ply = String(t.ply);
      button.textContent = `${t.label} ${t.move}`;
      if (t.threw) button.classList.add("threw");
      if (t.mistake) button.classList.add("first");
      button.addEventListener("click", () => step(t.ply));
      item.appendChild(button);
      list.appendChild(item);
    }
  }
  for (const button of list.querySelectorAll("button")) {
    if (Number(button.dataset.ply) === index) button.setAttribute("aria-current", "true");
    else button.removeAttribute("aria-current");
  }
}

function step(to) {
  if (!review) return;
  index = to;
  show();
}

document.addEventListener("DOMContentLoaded", () => {
  $("first").addEventListener("click", () => step(0));
  $("back").addEventListener("click", () => step(index - 1));
  $("next").addEventListener("click", () => step(index + 1));
  $("last").addEventListener("click", () => step(review ? review.turns.length : 0));
  document.addEventListener("keydown", (event) => {
    if (!review || event.altKey || event.ctrlKey || event.metaKey) return;
    const keys = {
      ArrowLeft: index - 1,
      ArrowRight: index + 1,
      Home: 0,
      End: review.turns.length,
    };
    if (event.key in keys) {
      event.preventDefault();
      step(keys[event.key]);
    }
  });
  loadGames();
});
