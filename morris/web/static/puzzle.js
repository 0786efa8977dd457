// Puzzles on the page (docs/PUZZLES.md): "Puzzle" asks POST /api/puzzle for a
// position from the solved game that the side to move wins in N turns; the lights on the board
// then guide the person to set it up, and the line under the event says how the puzzle stands.
"use strict";

(() => {
  const el = (tag, props = {}, ...children) => {
    const node = Object.assign(document.createElement(tag), props);
    node.append(...children);
    return node;
  };
  let seed = Math.floor(Math.random() * 1e6);

  async function start() {
    const winsIn = Number($("puzzle-wins-in").value);
    seed += 1;
    try {
      const response = await fetch("/api/puzzle", {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ wins_in: winsIn, seed }),
      });
      const body = await response.json();
      if (!response.ok) {
        say(body.error || t("error.status", { status: response.status }), true);
        return;
      }
      render(body);
      // Said in the puzzle's first state: the next change (a piece put) clears it (app.js).
      say(t("puzzle.started", { title: body.puzzle ? body.puzzle.title : "" }));
    } catch (error) {
      say(t("no-answer"), true);
    }
  }

  function line(p) {
    if (!p) return "";
    const used = [];
    if (p.hints) used.push(tn("puzzle.used.hints", p.hints));
    if (p.takebacks) used.push(tn("puzzle.used.takebacks", p.takebacks));
    const extra = used.length ? ` · ${used.join(", ")}` : "";
    if (p.status === "failed") {
      const keep = p.would_win.length
        ? t("puzzle.would-win", { moves: p.would_win.join(t("puzzle.or")) })
        : "";
      return t("puzzle.failed", { turn: p.failed_turn, why: p.why, keep, extra });
    }
    if (p.status === "playing") {
      return t("puzzle.playing", { title: p.title, left: tn("puzzle.left", p.left), extra });
    }
    const status = `puzzle.status.${p.status}` in STRINGS ? t(`puzzle.status.${p.status}`) : p.status;
    return t("puzzle.status", { title: p.title, status, extra });
  }

  function build() {
    const select = el("select", { id: "puzzle-wins-in", ariaLabel: t("puzzle.wins-in.label") });
    for (let n = 1; n <= 9; n += 1) {
      select.append(el("option", { value: n, textContent: tn("puzzle.wins-in", n), selected: n === 3 }));
    }
    $("controls").append(
      el("span", { className: "puzzle-pick" }, select,
        el("button", { type: "button", id: "puzzle-start", textContent: t("puzzle.button"), onclick: start })));
    $("event").after(el("p", { id: "puzzle", className: "event puzzle", hidden: true }));
    document.head.append(el("style", { textContent: `
      .puzzle-pick { display: inline-flex; gap: .3rem; }
      .puzzle-pick select { min-height: 44px; font-size: 1rem; }
      #puzzle { font-weight: bold; }
      body.watch .puzzle-pick { display: none; }
    ` }));
  }

  document.addEventListener("DOMContentLoaded", build);
  document.addEventListener("morris:state", (event) => {
    const p = event.detail.puzzle;
    const node = $("puzzle");
    if (!node) return;
    node.hidden = !p;
    node.textContent = line(p);
  });
})();
