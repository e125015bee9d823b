/* battlefield's board page: a table anyone arranges. Units (Shift: one model) are dragged
   anywhere with a mouse or a finger; for the position shown the server works out the rulings
   (POST /board/rulings: distances, combat, coherency, sight, objectives, a measurement between
   two models clicked in "measure" mode) and the depiction of the table with them, which
   depict.js draws - this page decides nothing. "share" stores the position (POST /boards) and
   gives its link (/board/ID). On GET /board without a scene, the upload of a scene file. */
(function () {
  "use strict";
  var bf = window.battlefield, data = bf.data;
  var OVERLAY = ["objectives", "combat", "marks", "rulings", "measurement", "labels"];

  function post(url, body) {
    return fetch(url, {method: "POST", headers: {"Content-Type": "application/json",
                                                 Accept: "application/json"},
                       body: JSON.stringify(body)})
      .then(function (r) { return r.json().then(function (d) { return {status: r.status, data: d}; }); });
  }

  if (data.kind === "pick") {                       // GET /board: upload a scene file
    var input = document.getElementById("upload"), state = document.getElementById("upload-state");
    input.addEventListener("change", function () {
      var file = input.files && input.files[0];
      if (!file) return;
      file.text().then(function (text) {
        state.textContent = "reading " + file.name + "...";
        return post("/boards", {scene: text});
      }).then(function (r) {
        if (r.status === 201) window.location.href = r.data.url;
        else state.textContent = r.data.error || "the server could not read it";
      });
    });
    return;
  }

  var svg = document.querySelector("svg.battlefield"), D = data.depth;
  var depict = new window.BattlefieldDepict(D, data.palette);
  var layers = {};
  OVERLAY.forEach(function (name) { layers[name] = svg.querySelector("#" + name); });
  var rulings = document.getElementById("board-rulings"), measured = document.getElementById("measured");
  var shareLink = document.getElementById("share-link"), boardState = document.getElementById("board-state");
  var measureButton = document.getElementById("measure");
  var moves = {}, measure = null, picking = null, hand = null;
  var inFlight = false, again = false, asked = 0, answeredN = 0;

  var start = {};
  svg.querySelectorAll("[data-model]").forEach(function (m) {
    start[m.getAttribute("data-model")] = [parseFloat(m.getAttribute("data-x")), parseFloat(m.getAttribute("data-y"))];
  });

  function num(v) { return String(Math.round(v * 10000) / 10000); }
  function place(m, x, y) {
    var f = parseFloat(m.getAttribute("data-facing")) || 0;
    m.setAttribute("transform", "translate(" + num(x) + " " + num(D - y) + ")" + (f ? " rotate(" + num(-f) + ")" : ""));
    m.setAttribute("data-x", num(x));
    m.setAttribute("data-y", num(y));
  }
  function tablePoint(ev) {
    var p = svg.createSVGPoint();
    p.x = ev.clientX; p.y = ev.clientY;
    var q = p.matrixTransform(svg.getScreenCTM().inverse());
    return [q.x, D - q.y];
  }

  function status(text) {
    boardState.textContent = text;
    boardState.setAttribute("data-asked", String(asked));
    boardState.setAttribute("data-answered", String(answeredN));
  }

  // The server's rulings of the position shown: one request in flight, the newest asked next.
  function rule() {
    if (inFlight) { again = true; return; }
    inFlight = true;
    var n = ++asked;
    status("checking...");
    post("/board/rulings", {board: data.board || undefined, scene: data.board ? undefined : data.base.scene,
                            moves: moves, measure: measure})
      .then(function (r) {
        if (r.status !== 200) { status(r.data.error || "the server could not rule on it"); return; }
        var d = r.data;
        depict.palette = d.palette || depict.palette;
        OVERLAY.forEach(function (name) { if (layers[name]) depict.fill(layers[name], d.overlay[name]); });
        rulings.textContent = "";
        (d.lines || []).forEach(function (line) {
          var p = document.createElement("p");
          p.textContent = line;
          rulings.appendChild(p);
        });
        measured.textContent = d.measure ? caption(d.measure) : "";
        answeredN = n;
        status(Object.keys(moves).length ? Object.keys(moves).length + " models moved" : "as set up");
      })
      .catch(function () { status("the server could not be reached"); })
      .then(function () {
        inFlight = false;
        if (again) { again = false; rule(); }
      });
  }
  function caption(m) {
    var d = m.distance.toFixed(2) + '"';
    return m.a + " -> " + m.b + ": " + d + ", visible: " + m.visible +
      ((m.blocked_by || []).length ? ", blocked by " + m.blocked_by.join(", ") : "") +
      (m.in_combat ? "; in combat" : (m.within_combat_range ? "; within combat range" : ""));
  }

  svg.addEventListener("pointerdown", function (ev) {
    var m = ev.target.closest && ev.target.closest("[data-model]");
    if (!m) return;
    ev.preventDefault();
    if (picking !== null) {                            // measure: the first, then the second
      var name = m.getAttribute("data-model");
      if (picking === "") { picking = name; status("measure from " + name + ": click another model"); return; }
      measure = [picking, name];
      picking = null;
      measureButton.setAttribute("aria-pressed", "false");
      rule();
      return;
    }
    var unit = m.getAttribute("data-unit");
    var models = ev.shiftKey ? [m] : Array.prototype.slice.call(svg.querySelectorAll("[data-model]"))
      .filter(function (e) { return e.getAttribute("data-unit") === unit; });
    var at = tablePoint(ev);
    hand = {pointer: ev.pointerId, from: at, models: models.map(function (e) {
      return {el: e, x: parseFloat(e.getAttribute("data-x")), y: parseFloat(e.getAttribute("data-y"))};
    })};
    try { svg.setPointerCapture(ev.pointerId); } catch (e) { /* a synthetic pointer */ }
  });
  svg.addEventListener("pointermove", function (ev) {
    if (!hand || ev.pointerId !== hand.pointer) return;
    ev.preventDefault();
    var at = tablePoint(ev), dx = at[0] - hand.from[0], dy = at[1] - hand.from[1];
    hand.models.forEach(function (m) {
      var x = Math.max(0, Math.min(data.width || 1e9, m.x + dx)), y = Math.max(0, Math.min(D, m.y + dy));
      place(m.el, x, y);
      moves[m.el.getAttribute("data-model")] = [Math.round(x * 10000) / 10000, Math.round(y * 10000) / 10000];
    });
    rule();
  });
  function release(ev) {
    if (!hand || ev.pointerId !== hand.pointer) return;
    hand = null;
    rule();
  }
  svg.addEventListener("pointerup", release);
  svg.addEventListener("pointercancel", release);

  measureButton.addEventListener("click", function () {
    if (picking !== null || measure) {
      picking = null; measure = null;
      measureButton.setAttribute("aria-pressed", "false");
      rule();
      return;
    }
    picking = "";
    measureButton.setAttribute("aria-pressed", "true");
    status("measure: click a model, then another");
  });
  document.getElementById("reset").addEventListener("click", function () {
    moves = {};
    svg.querySelectorAll("[data-model]").forEach(function (m) {
      var s = start[m.getAttribute("data-model")];
      place(m, s[0], s[1]);
    });
    rule();
  });
  document.getElementById("share").addEventListener("click", function () {
    var body = data.board ? {board: data.board, moves: moves} : {scene: data.base.scene, moves: moves};
    post("/boards", body).then(function (r) {
      shareLink.hidden = false;
      shareLink.textContent = "";
      if (r.status !== 201) { shareLink.textContent = r.data.error || "not stored"; return; }
      var a = document.createElement("a");
      a.href = r.data.url;
      a.textContent = window.location.origin + r.data.url;
      a.setAttribute("data-board", r.data.board);
      shareLink.appendChild(document.createTextNode("this position: "));
      shareLink.appendChild(a);
    });
  });

  status("as set up");
  window.battlefield.board = {moves: function () { return moves; }, rule: rule};
})();
