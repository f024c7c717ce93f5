// @ts-check
// The table's WebSocket: opened again a second after it drops (unless the server said
// the link opens no seat); every message from the server handed to `receive`.
import { $ } from "./common.js";

/** @type {WebSocket | null} */
let ws = null;
let fatal = false;

/** @param {string} id the table @param {string | null} token @param {(m: any) => void} receive */
export function connect(id, token, receive) {
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${id}` + (token ? `?token=${encodeURIComponent(token)}` : "");
  const socket = new WebSocket(url);
  ws = socket;
  socket.onopen = () => { $("#status").textContent = token ? "" : "watching"; };
  socket.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === "error" && m.fatal) fatal = true;
    receive(m);
  };
  socket.onclose = () => {
    if (fatal) return;
    $("#status").textContent = "reconnecting…";
    setTimeout(() => connect(id, token, receive), 1000);
  };
}

/** A message to the server (dropped while the socket is not open). @param {object} msg */
export function send(msg) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(msg)); }
