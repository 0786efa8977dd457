// Position setup on the page (docs/WEB.md, "Setup"): tap points to cycle empty -> white ->
// black, choose the side to move and the pieces in hand, and "Set up" sends the position text to
// POST /api/setup; the lights on the board then guide the person to arrange it. The picture is
// the server's (GET /api/render.svg), so the setup board looks like the live one.
"use strict";

(() => {
  // The 24 points in the order of the position text (ring by ring: outer, middle, inner).
  const NAMES = [
    "a7", "d7", "g7", "g4", "g1", "d1", "a1", "a4",
    "b6", "d6", "f6", "f4", "f2", "d2", "b2", "b4",
    "c5", "d5", "e5", "e4", "e3", "d3", "c3", "c4",
  ];
  const NEXT = { ".": "W", W: "B", B: "." };
  let cells = null; // point -> "W" | "B" | "."
  let side = "w";
  let variant = "standard";
  let latest = null; // the last state from the server

  const el = (tag, props = {}, ...children) => {
    const node = Object.assign(document.createElement(tag), props);
    node.append(...children);
    return node;
  };

  let perSide = 9; // pieces per side of the variant, as far as the game shows it

  function rings() {
    const marks = NAMES.map((name) => cells[name] || ".");
    return [0, 8, 16].map((i) => marks.slice(i, i + 8).join("")).join("/");
  }

  const hand = (colour) => Math.max(0, parseInt($(`setup-hand-${colour}`).value, 10) || 0);
  const count = (mark) => NAMES.filter((name) => cells[name] === mark).length;

  function positionText() {
    return `${rings()} ${side} ${hand("white")} ${hand("black")} 0 1 -`;
  }

  // A piece put on the board comes out of its side's hand while the hand would be too full.
  function fitHands() {
    for (const [colour, mark] of [["white", "W"], ["black", "B"]]) {
      const room = Math.max(0, perSide - count(mark));
      if (hand(colour) > room) $(`setup-hand-${colour}`).value = room;
    }
  }

  function fromState(s) {
    const field = (s.position || "").split(" ")[0].replaceAll("/", "");
    cells = {};
    NAMES.forEach((name, i) => { cells[name] = field[i] || "."; });
    side = s.turn === "black" ? "b" : "w";
    variant = s.variant || "standard";
    $("setup-hand-white").value = s.in_hand ? s.in_hand.white : 0;
    $("setup-hand-black").value = s.in_hand ? s.in_hand.black : 0;
    const hands = s.in_hand || { white: 0, black: 0 };
    perSide = Math.max(9, hands.white + count("W"), hands.black + count("B"));
  }

  async function draw() {
    fitHands();
    const text = positionText();
    $("setup-text").textContent = text;
    for (const colour of ["white", "black"]) {
      $(`setup-side-${colour}`).setAttribute("aria-pressed", String(side === colour[0]));
    }
    try {
      // The picture needs the pieces only: the hands are checked when the position is sent.
      const drawn = `${rings()} ${side} 0 0 0 1 -`;
      const url = `/api/render.svg?position=${encodeURIComponent(drawn)}&variant=${variant}`;
      const response = await fetch(url, { credentials: "same-origin" });
      if (response.ok) {
        $("setup-board").innerHTML = await response.text();
        $("setup-error").textContent = "";
      } else {
        $("setup-error").textContent = (await response.json()).error || t("error.status", { status: response.status });
      }
    } catch (error) {
      $("setup-error").textContent = t("no-answer");
    }
  }

  function open() {
    if (!latest) return;
    fromState(latest);
    document.body.classList.add("setting-up");
    $("setup").hidden = false;
    draw();
  }

  function close() {
    document.body.classList.remove("setting-up");
    $("setup").hidden = true;
  }

  async function send() {
    const text = positionText();
    try {
      const response = await fetch("/api/setup", {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "text/plain" },
        body: text,
      });
      const body = await response.json();
      if (!response.ok) {
        $("setup-error").textContent = body.error || t("error.status", { status: response.status });
        return;
      }
      close();
      render(body);
      say(t("setup.started"));
    } catch (error) {
      $("setup-error").textContent = t("no-answer");
    }
  }

  function build() {
    const sideButton = (colour) => el("button", {
      type: "button", id: `setup-side-${colour}`, textContent: t(`setup.side.${colour}`),
      onclick: () => { side = colour[0]; draw(); },
    });
    const hand = (colour) => el("label", { className: "setup-hand" },
      t("setup.in-hand", { colour: colourWord(colour) }),
      el("input", {
        type: "number", id: `setup-hand-${colour}`, min: 0, max: 12, value: 0,
        inputMode: "numeric", oninput: draw,
      }));
    const section = el("section", { id: "setup", hidden: true, ariaLabel: t("setup.label") },
      el("h2", { textContent: t("setup.title") }),
      el("p", { className: "help", textContent: t("setup.help") }),
      el("div", { id: "setup-board", className: "board-box" }),
      el("div", { className: "setup-row" }, sideButton("white"), sideButton("black")),
      el("div", { className: "setup-row" }, hand("white"), hand("black")),
      el("div", { className: "setup-row" },
        el("button", { type: "button", id: "setup-clear", textContent: t("setup.clear"),
          onclick: () => { NAMES.forEach((n) => { cells[n] = "."; }); draw(); } }),
        el("button", { type: "button", id: "setup-cancel", textContent: t("setup.cancel"), onclick: close }),
        el("button", { type: "button", id: "setup-send", className: "primary", textContent: t("setup.send"), onclick: send })),
      el("p", { id: "setup-error", className: "message error", role: "alert" }),
      el("p", { id: "setup-text", className: "help setup-text" }));
    $("board").after(section);
    // Disabled until the first state arrives: setting up starts from the board's position, and a
    // tap before the page knows it would otherwise do nothing at all.
    $("controls").append(el("button", {
      type: "button", id: "setup-open", textContent: t("setup.open"), onclick: open, disabled: latest === null,
    }));
    $("setup-board").addEventListener("click", (event) => {
      const target = event.target.closest("[data-point]");
      if (!target || !cells) return;
      const name = target.dataset.point;
      cells[name] = NEXT[cells[name] || "."];
      draw();
    });
    document.head.append(el("style", { textContent: `
      body.setting-up #board, body.setting-up #tap-help { display: none; }
      #setup .setup-row { display: flex; flex-wrap: wrap; gap: .5rem; margin: .5rem 0; }
      #setup button { min-height: 48px; min-width: 44px; font-size: 1rem; border-radius: .6rem;
        border: 1px solid #c7c2b8; background: var(--card); color: var(--fg); flex: 1; }
      #setup button[aria-pressed="true"], #setup button.primary { background: var(--accent); color: #fff; }
      #setup .setup-hand { display: inline-flex; align-items: center; gap: .4rem; flex: 1; }
      #setup input { width: 4.5rem; min-height: 44px; font-size: 1rem; }
      .setup-text { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
      body.watch #setup-open, body.setting-up #setup-open { display: none; }
    ` }));
  }

  document.addEventListener("DOMContentLoaded", build);
  document.addEventListener("morris:state", (event) => {
    latest = event.detail;
    const button = $("setup-open");
    if (button) button.disabled = false;
  });
})();
