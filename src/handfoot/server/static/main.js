"use strict";
// ------------------------------------------------------------------- start
applySettings();
(function start() {
  const m = location.pathname.match(/^\/table\/([A-Za-z0-9_-]+)/);
  const params = new URLSearchParams(location.search);
  if (m) {
    hf.table = m[1];
    hf.token = params.get("token") || localStorage.getItem("hf-token-" + hf.table);
    if (hf.token) localStorage.setItem("hf-token-" + hf.table, hf.token);
    connect();
  } else if (params.get("replay")) {
    showReplay(params.get("replay"));
  } else {
    showLobby();
  }
})();
