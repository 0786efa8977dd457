// The review page: the saved games listed; one opened is stepped through on the board picture
// (buttons, arrow keys, the turn list, a tap on the game's graph), with each turn's score and
// win/draw/loss before and after and the first turn that threw a result away marked. The pictures
// come drawn from the server (/api/render.svg and the graph /api/games/{id}/chart.svg: one
// renderer each), the review from /api/games/{id}/review. No build step; the texts are in
// strings.js.
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
let charted = null; // the game whose graph is drawn

function say(text, error) {
  const message = $("message");
  message.textContent = text || "";
  message.classList.toggle("error", Boolean(error));
}

function formatScore(score) {
  if (score === null || score === undefined) return "-";
  if (Math.abs(score) > MATE_BOUND) {
    return tn(score > 0 ? "review.win-in" : "review.loss-in", MATE - Math.abs(score));
  }
  const pieces = (score / 100).toFixed(2);
  return score >= 0 ? `+${pieces}` : pieces;
}

function formatSolved(value) {
  return value ? value.text : "-";
}

function formatWdl(wdl) {
  if (!wdl) return "-";
  if (wdl.source === "end") return t({ win: "review.won", draw: "review.drawn", loss: "review.lost" }[wdl.value]);
  if (wdl.value === "draw") return t("review.draw");
  return tn(wdl.value === "win" ? "review.win-in" : "review.loss-in", wdl.wins_in);
}

function gameName(game) {
  const tags = game.tags || {};
  return t("review.players", {
    white: tags.White || colourWord("white"),
    black: tags.Black || colourWord("black"),
  });
}

async function getJson(url) {
  const response = await fetch(url, { credentials: "same-origin" });
  let body = null;
  try {
    body = await response.json();
  } catch (error) {
    body = { error: t("error.status", { status: response.status }) };
  }
  return { status: response.status, ok: response.ok, body };
}

async function loadGames() {
  let answer;
  try {
    answer = await getJson("/api/games");
  } catch (error) {
    shell.reachable(false);
    return;
  }
  shell.reachable(true);
  if (!answer.ok) {
    say(answer.body.error || t("error.status", { status: answer.status }), true);
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
      ? t("review.unreadable", { error: game.error })
      : tn("review.game-line", game.moves, { date: game.date || "", result: game.result });
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
  charted = null;
  $("chart").replaceChildren();
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
    shell.reachable(false);
    poll = setTimeout(() => fetchReview(id, first), 3000); // the board may come back
    return;
  }
  shell.reachable(true);
  if (id !== gameId) return; // another game was opened meanwhile
  if (!answer.ok) {
    say(answer.body.error || t("error.status", { status: answer.status }), true);
    return;
  }
  const body = answer.body;
  review = body;
  if (first) {
    index = body.turns.length;
    $("game").hidden = $("game-head").hidden = $("game-view").hidden = false;
    say("");
  }
  if (body.status === "running") {
    const total = body.total || body.turns.length + 1;
    $("progress").textContent = tn("review.running", total, { done: body.done });
    poll = setTimeout(() => fetchReview(id, false), 700);
  } else {
    $("progress").textContent = "";
    drawChart(id);
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
      say(body.error || t("error.status", { status: response.status }), true);
      return;
    }
    const svg = await response.text();
    if (ticket === drawn) $("board").innerHTML = svg;
  } catch (error) {
    shell.reachable(false);
  }
}

// The game's graph, drawn by the server from the finished review; a tap on it shows that turn.
async function drawChart(id) {
  if (charted === id) return;
  charted = id;
  try {
    // As wide as it is drawn (its text then stays at its size), within what the server draws.
    const width = Math.max(240, Math.min(2048, Math.round($("chart").clientWidth || 720)));
    const response = await fetch(`/api/games/${encodeURIComponent(id)}/chart.svg?width=${width}`, {
      credentials: "same-origin",
    });
    if (!response.ok) {
      const body = await response.json();
      say(body.error || t("error.status", { status: response.status }), true);
      charted = null;
      return;
    }
    const svg = await response.text();
    if (id !== gameId) return;
    $("chart").innerHTML = svg;
    moveCursor();
  } catch (error) {
    charted = null;
    shell.reachable(false);
  }
}

// The graph's cursor on the turn shown.
function moveCursor() {
  const cursor = document.querySelector("#chart line.cursor");
  const column = document.querySelector(`#chart rect.hit[data-ply="${index}"]`);
  if (!cursor || !column) return;
  const x = column.dataset.x;
  cursor.setAttribute("x1", x);
  cursor.setAttribute("x2", x);
  cursor.dataset.ply = String(index);
}

function describeThrow(turn) {
  if (turn.threw === "solution") {
    return t("review.throw.solution", {
      before: formatSolved(turn.solution_before),
      after: formatSolved(turn.solution_after),
    });
  }
  if (turn.threw === "tables") {
    return t("review.throw.tables", {
      before: formatWdl(turn.wdl_before),
      after: formatWdl(turn.wdl_after),
    });
  }
  return t("review.throw.engine", {
    before: formatScore(turn.score_before),
    after: formatScore(turn.score_after),
    threshold: ((review.engine || {}).threshold || 200) / 100,
  });
}

function show() {
  if (!review) return;
  const turns = review.turns;
  index = Math.max(0, Math.min(index, turns.length));
  drawBoard();
  const turn = index > 0 ? turns[index - 1] : null;
  const tags = review.tags || {};
  $("game-title").textContent = t("review.title", {
    white: tags.White || colourWord("white"),
    black: tags.Black || colourWord("black"),
    result: review.result,
  });
  $("turn").textContent = turn
    ? t("review.turn", {
      ply: index, count: turns.length, label: turn.label, move: turn.move, mover: colourWord(turn.mover),
    })
    : tn("review.start", turns.length);
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
    const which = turn.mistake ? t("review.first-threw") : t("review.threw-too");
    mark.textContent = t("review.mark", { which, why: describeThrow(turn) });
  }
  const summary = $("summary");
  if (review.status === "running") {
    summary.textContent = t("review.chart-waiting");
  } else if (review.first_mistake) {
    const first = turns[review.first_mistake - 1];
    summary.textContent = t("review.first-mistake", { ...first, mover: colourWord(first.mover) });
  } else {
    summary.textContent = t("review.no-mistake");
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
  $("dl-chart").href = `/api/games/${encodeURIComponent(gameId)}/chart.png`;
  $("dl-chart").setAttribute("download", `${gameId}-graph.png`);
  $("dl-chart").hidden = review.status === "running";
  const variant = tags.Variant || "standard";
  $("variant").textContent = t("review.variant", {
    variant: `variant.${variant}` in STRINGS ? t(`variant.${variant}`) : variant,
    position: positionShown(),
  });
  const list = $("turns");
  if (list.childElementCount !== turns.length || list.dataset.status !== review.status) {
    list.replaceChildren();
    list.dataset.status = review.status;
    for (const entry of turns) {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.ply = String(entry.ply);
      button.textContent = `${entry.label} ${entry.move}`; // numbered as the record is
      if (entry.threw) button.classList.add("threw");
      if (entry.mistake) button.classList.add("first");
      button.addEventListener("click", () => step(entry.ply));
      item.appendChild(button);
      list.appendChild(item);
    }
  }
  for (const button of list.querySelectorAll("button")) {
    if (Number(button.dataset.ply) === index) button.setAttribute("aria-current", "true");
    else button.removeAttribute("aria-current");
  }
  moveCursor();
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
  $("chart").addEventListener("click", (event) => {
    const column = event.target.closest("[data-ply]");
    if (column) step(Number(column.dataset.ply));
  });
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
