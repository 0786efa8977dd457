// The remote opponent on the page (docs/WEB.md, "Remote opponent"). In mode remote the page is
// the remote player's board: on its turn the remote player taps the turn (a point to place on;
// or the piece to move, then where; then the piece to take after a mill), and it is sent to
// POST /api/remote/move; the board then shows it in its lights until the person there carries
// it out. When the remote player is a linked board, the page is that board's view and says
// "waiting" while the other board is not connected.
"use strict";

(() => {
  let s = null; // the last state
  let legal = null; // GET /api/remote/legal: {turn, moves, waiting}
  let picked = []; // the points tapped so far for the turn being composed

  const isRemotePlayer = () =>
    Boolean(s && s.mode === "remote" && s.remote_player !== "board" && s.access === "control");

  // The points a turn is tapped as: [from, to, removal] (a placement has no from).
  function taps(move) {
    const [body, remove] = move.split("x");
    const [from, to] = body.includes("-") ? body.split("-") : [null, body];
    return [from, to, remove].filter(Boolean);
  }

  function line() {
    let node = $("remote-line");
    if (!node) {
      node = Object.assign(document.createElement("p"), { id: "remote-line", className: "remote-line" });
      $("turn-box").append(node);
    }
    return node;
  }

  function describe() {
    // The remote player plays on the page; the board's buttons stay with the person there.
    document.body.classList.toggle("remote-player", isRemotePlayer());
    const node = line();
    node.hidden = !(s && s.mode === "remote");
    if (node.hidden) return;
    if (isRemotePlayer()) {
      const board = s.remote_color === "white" ? "black" : "white";
      $("who").textContent = t("remote.who-player", {
        colour: colourWord(s.remote_color),
        board: colourWord(board),
      });
      if (s.outcome) {
        $("turn").textContent = s.winner ? t(`turn.wins.${s.winner}`) : t("turn.draw");
      } else if (legal && legal.waiting) {
        $("turn").textContent = t("remote.waiting-turn", { move: legal.waiting });
      } else if (s.turn === s.remote_color) {
        $("turn").textContent = t("remote.your-move", { turn: colourWord(s.turn) });
      } else {
        $("turn").textContent = t("remote.boards-move", { turn: colourWord(s.turn) });
      }
      node.textContent = picked.length ? t("remote.picked", { points: picked.join(" ") }) : "";
      node.classList.remove("waiting");
      return;
    }
    // Who is far: "board" (a linked board) or "page" (a person on the page).
    const far = s.remote_player === "board" ? "board" : "page";
    $("who").textContent = t(`remote.who-board.${far}`, {
      human: colourWord(s.human),
      colour: colourWord(s.remote_color),
    });
    if (!s.outcome) {
      $("turn").textContent = s.turn === s.human
        ? t("turn.yours", { turn: colourWord(s.turn) })
        : t(`remote.fars-move.${far}`, { turn: colourWord(s.turn) });
    }
    node.textContent = s.link === "waiting"
      ? t(`remote.waiting-for.${far}`)
      : t(`remote.connected.${far}`);
    node.classList.toggle("waiting", s.link === "waiting");
  }

  function highlight() {
    for (const point of picked) {
      const mark = document.querySelector(`#board [data-point="${point}"]`);
      if (mark) mark.classList.add("picked");
    }
  }

  async function refresh() {
    legal = null;
    if (isRemotePlayer() && !s.outcome) {
      try {
        const response = await fetch("/api/remote/legal", { credentials: "same-origin" });
        if (response.ok) legal = await response.json();
      } catch (error) {
        legal = null;
      }
    }
    if (!legal || !legal.turn) picked = [];
    describe();
    highlight();
  }

  async function send(move) {
    picked = [];
    try {
      const response = await fetch("/api/remote/move", {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ move }),
      });
      const body = await response.json();
      if (!response.ok) {
        say(body.error || t("error.status", { status: response.status }), true);
        return;
      }
      say(t("remote.sent", { move }));
      render(body);
    } catch (error) {
      say(t("no-answer"), true);
    }
  }

  function tap(point) {
    if (browsing !== null) { // an earlier position of the move list is shown (app.js)
      say(t("browse.no-taps"), true);
      return;
    }
    if (!legal || !legal.turn) {
      say(s.turn === s.remote_color ? t("remote.wait") : t("remote.not-yours"), true);
      return;
    }
    if (picked.length && picked[picked.length - 1] === point) {
      picked.pop(); // a second tap on a picked point takes it back
    } else {
      const next = [...picked, point];
      const fits = legal.moves.filter((m) => next.every((p, i) => taps(m)[i] === p));
      if (!fits.length) {
        say(t("remote.no-turn", { points: next.join(" ") }), true);
        return;
      }
      const done = fits.find((m) => taps(m).length === next.length);
      if (done && fits.length === 1) {
        send(done);
        return;
      }
      picked = next;
    }
    say(picked.length ? t("remote.picked-next", { points: picked.join(" ") }) : "");
    describe();
    highlight();
  }

  document.addEventListener("morris:state", (event) => {
    s = event.detail;
    describe();
    refresh();
  });

  document.addEventListener("DOMContentLoaded", () => {
    // In the capture phase, before the page's own taps (which put pieces on a simulated board).
    $("board").addEventListener("click", (event) => {
      if (!isRemotePlayer()) return;
      const target = event.target.closest("[data-point]");
      event.stopPropagation();
      if (target) tap(target.dataset.point);
    }, true);
    document.head.append(Object.assign(document.createElement("style"), { textContent: `
      .remote-line { margin: .2rem 0; font-weight: 600; }
      .remote-line.waiting { color: #b45309; }
      #board .picked { stroke: var(--accent); stroke-width: 4; fill: rgba(37, 99, 235, .25); }
      body.remote-player [data-press], body.remote-player #setup-open,
      body.remote-player #tap-help { display: none; }
    ` }));
  });
})();
