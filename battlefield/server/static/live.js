/* battlefield's live page: the replay page of battlefield/page (its viewer already started by
   Battlefield.start("replay") with the versions so far) following the game as a spectator.
   It joins the game's WebSocket without a seat (ws://HOST/games/ID/play): every "event" and the
   "over" say a new version exists, and the versions since the last one the page has are fetched
   from /games/ID/versions?since=N (built by the server, only what a spectator may see) and
   handed to viewer.addVersion. The page follows the newest version unless it was opened at a
   #v=N or stepped back; a dropped connection joins again by itself.
   Status: <div id="live" data-state="connecting|live|reconnecting|over" data-version=N>.
   The play page (battlefield/server/static/play.js) joins with its seat (`live.play` holds
   ?seat=TOKEN) and listens here: battlefield.live.listen(fn) gets every message and every
   change of the connection ({"type": "status", "status": STATE}); battlefield.live.send(msg)
   sends one while connected (false when not). */
(function () {
  "use strict";
  var bf = window.battlefield, viewer = bf.viewer, panel = bf.panel, data = bf.data;
  var live = data.live, Panel = window.Battlefield.Panel;
  var status = document.createElement("div");
  status.id = "live";
  var box = document.querySelector(".panel");
  box.insertBefore(status, box.firstChild);

  var wanted = Panel.hashVersion();          // a link to one moment: stay there
  if (wanted === null) panel.go(viewer.count - 1, true);
  else {
    panel.follow = false;
    panel.shown(viewer.current);               // the log scrolled again below the status line
    if (wanted < viewer.count) wanted = null;
  }

  var over = !!live.over, seed = data.seed, known = viewer.count - 1, shown = known;
  var fetching = false, again = false, delay = 500, socket = null, listeners = [];
  function tell(msg) { for (var k = 0; k < listeners.length; k++) listeners[k](msg); }

  function say(state) {
    var text;
    if (state === "over") text = "game over · " + (viewer.count - 1) + " actions" +
        (seed !== undefined ? " · seed " + seed : "");
    else if (state === "live") text = "live · " + known + " actions" +
        (shown < known ? " · " + (known - shown) + " held back until a secret answer is revealed" : "");
    else if (state === "reconnecting") text = "connection lost: joining again";
    else text = "joining the game · " + known + " actions so far";
    if (status.getAttribute("data-state") !== state) tell({type: "status", status: state});
    status.setAttribute("data-state", state);
    status.setAttribute("data-version", String(viewer.count - 1));
    status.className = "live " + state;
    status.textContent = text;
  }

  function pull() {
    if (fetching) { again = true; return; }
    fetching = true;
    fetch(live.versions + "?since=" + viewer.count, {headers: {Accept: "application/json"},
                                                    cache: "no-store"})
      .then(function (r) { return r.json(); })
      .then(function (d) {
        (d.versions || []).forEach(function (v) {
          if (v.v === viewer.count) viewer.addVersion(v);
        });
        shown = d.shown;
        known = Math.max(known, d.version);
        if (wanted !== null && wanted < viewer.count) { panel.go(wanted, true); panel.follow = false; wanted = null; }
        say(over ? "over" : (socket && socket.readyState === 1 ? "live" : "reconnecting"));
      })
      .catch(function () { /* the next message, or joining again, asks again */ })
      .then(function () {
        fetching = false;
        if (again) { again = false; pull(); }
      });
  }

  function connect() {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    var ws = socket = new WebSocket(scheme + window.location.host + live.play);
    ws.onopen = function () { delay = 500; };
    ws.onmessage = function (ev) {
      var msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      tell(msg);
      if (msg.type === "retracted") {          // versions after msg.version are gone
        viewer.truncate(msg.version + 1);
        known = msg.version;
        shown = Math.min(shown, known);
        say("live");
      } else if (msg.type === "hello" || msg.type === "event") {
        known = Math.max(known, msg.version);
        say("live");
        pull();
      } else if (msg.type === "over") {
        over = true;
        seed = msg.seed;
        known = msg.version;
        pull();
      }
    };
    ws.onclose = function () {
      if (over) { say("over"); return; }
      say("reconnecting");
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 10000);
    };
  }

  function send(msg) {
    if (!socket || socket.readyState !== 1) return false;
    socket.send(JSON.stringify(msg));
    return true;
  }

  say(over ? "over" : "connecting");
  connect();
  window.battlefield.live = {status: status, pull: pull, send: send,
                             listen: function (fn) { listeners.push(fn); }};
})();
