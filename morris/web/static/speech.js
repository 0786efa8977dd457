// The board's announcements said aloud on this device (docs/WEB.md, "Speech"): the "Speak"
// toggle, off until it is turned on, remembered here. The server sends each announcement the
// board makes ("Pi plays b4, take a1", a mill and what may be taken, a mistake and its fix, the
// end of the game ...) in the page's language as an `announcement` event of the stream (app.js
// hands it over as "morris:announcement"); the browser's speech synthesis says it with the
// page's language tag (CATALOG.speech, "fi-FI").
//
// The queue is the board's own (morris/app/speech.py, SpeechQueue): a newer announcement of a
// higher rank, or of the same kind, cuts the one being said; waiting ones of a lower rank or the
// same kind are dropped; higher ranks are said first; at most LIMIT wait.
"use strict";

const speech = (() => {
  const KEY = "morris-speech";
  const LIMIT = 4;
  const synth = "speechSynthesis" in window ? window.speechSynthesis : null;
  let on = false;
  let current = null; // the announcement being said
  let pending = []; // those waiting, the next first

  function utter(text) {
    const utterance = new SpeechSynthesisUtterance(text);
    utterance.lang = CATALOG.speech || LANG;
    const done = () => {
      if (current && current.utterance === utterance) {
        current = null;
        next();
      }
    };
    utterance.onend = done;
    utterance.onerror = done;
    return utterance;
  }

  function next() {
    if (!on || !synth || current || !pending.length) return;
    current = pending.shift();
    current.utterance = utter(current.text);
    synth.speak(current.utterance);
  }

  // Queue announcement {id, kind, rank, text}; a higher rank or the same kind cuts the one said.
  function push(announcement) {
    if (!on || !synth) return;
    const { rank, kind } = announcement;
    pending = pending.filter((p) => p.rank >= rank && p.kind !== kind);
    const at = pending.findIndex((p) => p.rank < rank);
    pending.splice(at < 0 ? pending.length : at, 0, { ...announcement });
    pending.length = Math.min(pending.length, LIMIT);
    if (current && (rank > current.rank || kind === current.kind)) {
      current = null;
      synth.cancel();
    }
    next();
  }

  function show(button) {
    button.setAttribute("aria-pressed", String(on));
    button.classList.toggle("on", on);
  }

  function set(value, button) {
    on = value;
    try {
      localStorage.setItem(KEY, on ? "1" : "0");
    } catch (error) {
      // storage off: on for this page only
    }
    show(button);
    pending = [];
    current = null;
    if (synth) synth.cancel();
    // Said at the tap: a browser lets a page speak once a person asked it to.
    if (on && synth) push({ id: 0, kind: "speech on", rank: 0, text: t("speech.on") });
    if (on && !synth) say(t("speech.none"), true);
  }

  document.addEventListener("DOMContentLoaded", () => {
    const button = document.getElementById("speak");
    if (!button) return;
    try {
      on = localStorage.getItem(KEY) === "1";
    } catch (error) {
      on = false;
    }
    show(button);
    button.addEventListener("click", () => set(!on, button));
  });
  document.addEventListener("morris:announcement", (event) => push(event.detail));

  return {
    push,
    get on() {
      return on;
    },
  };
})();
