// The page shell, on both pages: the service worker that keeps the shell (so that the page opens
// from the home screen while the board is away, and says so), and the banner that says the board
// is not reachable. A fetch that fails without an answer (not a 4xx or 5xx) means just that.
"use strict";

const shell = {
  // Show or hide the banner "the board is not reachable".
  reachable(up) {
    const banner = document.getElementById("offline");
    if (!banner) return;
    banner.textContent = t("offline");
    banner.hidden = up;
  },

  // Whether the board answers at all (any HTTP answer counts: a 403 is a board that is there).
  async probe() {
    try {
      await fetch("/api/state", { credentials: "same-origin", cache: "no-store" });
      return true;
    } catch (error) {
      return false;
    }
  },
};

// Service workers need a secure context: http://localhost and https. On a LAN address over plain
// http the browser has none, and the page works as before without it.
if ("serviceWorker" in navigator && window.isSecureContext) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js").catch(() => {});
  });
}
window.addEventListener("offline", () => shell.reachable(false));
