// @ts-check
// The page's start: the settings, then the table (a /table/ID address), a replay
// (?replay=ID) or the lobby. The only script the page names; the others are imported.
import { receive as chatReceive } from "./chat.js";
import { setUpHouseRules } from "./house.js";
import { setUpLobby, showLobby } from "./lobby.js";
import { receive as peopleReceive, showPerson, takeSeat } from "./people.js";
import { showReplay } from "./replay.js";
import { setUpSettings } from "./settings.js";
import { connect } from "./socket.js";
import { openTable } from "./state.js";
import { setUpDragging } from "./table-drag.js";
import { receive as tableReceive, setUpTable } from "./table.js";
import { receive as waitingReceive } from "./waiting.js";

setUpSettings();
setUpLobby();
setUpHouseRules();
setUpTable();
setUpDragging();

const at = location.pathname.match(/^\/table\/([A-Za-z0-9_-]+)/);
const params = new URLSearchParams(location.search);
const replay = params.get("replay");
if (at) {
  const id = at[1];
  const token = params.get("token") || localStorage.getItem("hf-token-" + id);
  if (token) localStorage.setItem("hf-token-" + id, token);
  openTable(id, token);
  // the table first: the waiting room and the chat read the state it keeps
  connect(id, token, (m) => { tableReceive(m); waitingReceive(m); chatReceive(m); peopleReceive(m); });
  takeSeat(id, token);
} else if (replay) {
  showReplay(replay);
} else {
  showLobby();
  showPerson();
}
