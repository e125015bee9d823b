/* battlefield's play page: the live page (live.js, joined with this page's seat) plus play.
   With a mouse or a finger (pointer events) a player drags one of their units (Shift: one
   model); while it is in the hand the page asks the server for a preview of the drop at most
   ten times a second, one at a time, and shows what the server's engine says - the distance
   used, legal or why not, the ruleset's notes, the reachable area, the drag's depiction drawn
   by depict.js - in #preview (data-legal="true|false", data-codes: the violation codes). A drop
   sends the action the last preview judged (routed round what is in the way, snapped to the
   nearest legal place); the server's event moves the unit. Decisions and every other action
   are buttons, each carrying the action it sends as JSON in data-action; an action whose
   fields no button can give is a form, checked by a preview before it is sent. The page
   decides nothing itself: what is legal, what is drawn and what the buttons are come from the
   server (`offers`, `preview`).
   Clicks by mistake (as the window's view/guard.py): a button just shown takes no click for
   GUARD_MS, nor a click of the pointer until the pointer has moved since it appeared (so a
   double click on end-phase ends one phase); a choice that spends something (offers' "spends") asks "yes"
   first, in a bar away from the button; the seat's last action, while it may be taken back
   (offers' "retract": its own, no dice seen, the other side has not acted since), has a
   "take back" button that sends {"type": "retract"}. Past the server's rate (an error with
   retry_after) an act is sent again after the wait, and previews pause meanwhile. */
(function () {
  "use strict";
  var bf = window.battlefield, viewer = bf.viewer, data = bf.data, live = bf.live;
  var play = data.play || {}, seat = play.seat || null;
  var svg = document.querySelector("svg.battlefield");
  var D = viewer.depth, depict = viewer.depict;
  var preview = document.getElementById("preview");
  var actionsBox = document.getElementById("actions"), formsBox = document.getElementById("forms");
  var message = document.getElementById("message"), you = document.getElementById("you");
  var turn = document.getElementById("turn");
  var GUARD_MS = 600;          // a button shown under the pointer takes no click for this long
  var MOVED_PX = 4;            // and none until the pointer has moved this far on it
  var PREVIEW_MS = 100;        // at most ten previews a second
  var REST_MS = 150;           // a unit held still this long gets the rulings at rest

  // Layers for the drag: what stays put, then the drop's depiction, over the table.
  function layer(id) {
    var g = document.createElementNS("http://www.w3.org/2000/svg", "g");
    g.id = id;
    g.setAttribute("class", "drag-layer");
    svg.appendChild(g);
    return g;
  }
  var stillLayer = layer("drag-still"), ghostLayer = layer("drag-ghost"), dragLayer = layer("drag");

  var offers = null, known = 0, ids = 0, unanswered = null, over = !!(data.live && data.live.over);
  var pointer = null, confirming = null, pausedUntil = 0;

  /* --- the click guard ------------------------------------------------------------------- */
  function inside(el, p) {
    var r = el.getBoundingClientRect();
    return p && p[0] >= r.left && p[0] < r.right && p[1] >= r.top && p[1] < r.bottom;
  }
  // A button just shown takes no click for GUARD_MS, and no click of the pointer until the
  // pointer has moved MOVED_PX since it appeared (a second click of a double click lands on
  // whatever appeared where the first was: not taken). A click by the keyboard counts after
  // GUARD_MS. data-fresh: the button appeared under the pointer.
  var guarded = [];
  function guard(button) {
    button.setAttribute("data-shown", String(Date.now()));
    button._guard = {at: Date.now(), from: pointer ? pointer.slice() : null, moved: false};
    if (inside(button, pointer)) button.setAttribute("data-fresh", "true");
    guarded = guarded.filter(function (b) { return b.isConnected && !b._guard.moved; });
    guarded.push(button);
  }
  function blocked(button, ev) {
    var g = button._guard;
    if (!g) return false;
    if (Date.now() - g.at < GUARD_MS) return true;
    if (ev && ev.detail > 0 && !g.moved) return true;      // not moved since it appeared
    button.removeAttribute("data-fresh");
    return false;
  }
  document.addEventListener("pointermove", function (ev) {
    pointer = [ev.clientX, ev.clientY];
    guarded = guarded.filter(function (b) {
      var g = b._guard;
      if (!g.from || Math.hypot(pointer[0] - g.from[0], pointer[1] - g.from[1]) > MOVED_PX) {
        g.moved = true;
        b.removeAttribute("data-fresh");
      }
      return b.isConnected && !g.moved;
    });
  }, true);
  document.addEventListener("pointerdown", function (ev) { pointer = [ev.clientX, ev.clientY]; }, true);

  // A choice that spends something: "yes" first, in a bar above the buttons.
  function confirmFirst(b, action) {
    var bar = document.getElementById("confirm");
    if (!bar) {
      bar = document.createElement("div");
      bar.id = "confirm";
      bar.className = "confirm";
      actionsBox.parentNode.insertBefore(bar, message);
    }
    bar.textContent = "";
    confirming = action;
    var q = document.createElement("p");
    q.textContent = b.label + ": " + (b.tip || "it spends something of yours") + ". Sure?";
    var yes = document.createElement("button"), no = document.createElement("button");
    yes.type = no.type = "button";
    yes.className = "act confirm-yes";
    yes.textContent = "yes, " + b.label;
    yes.setAttribute("data-action", JSON.stringify(action));
    no.className = "act confirm-no";
    no.textContent = "no";
    bar.appendChild(q); bar.appendChild(yes); bar.appendChild(no);
    bar.hidden = false;
    guard(yes); guard(no);
    setTimeout(function () { yes.setAttribute("data-ready", "true"); no.setAttribute("data-ready", "true"); }, GUARD_MS);
    yes.addEventListener("click", function (ev) {
      if (blocked(yes, ev)) return;
      closeConfirm();
      act(action);
    });
    no.addEventListener("click", function (ev) { if (!blocked(no, ev)) closeConfirm(); });
  }
  function closeConfirm() {
    var bar = document.getElementById("confirm");
    confirming = null;
    if (bar) { bar.textContent = ""; bar.hidden = true; }
  }
  var hand = null;             // the unit in the hand (see pickUp)

  function say(text, bad) {
    message.textContent = text || "";
    message.className = "message" + (bad ? " bad" : "");
  }
  function send(msg) { return live.send(msg); }

  // Our own action's news, worded as the window and the game log word it (rules/outcome,
  // page/replay's "action" and "outcome"): who did what to whom, then what came of it,
  // credited to the side that caused it - once the version it made has arrived.
  var news = null;
  function sayNews() {
    var v = news !== null ? viewer.versions[news] : null;
    if (!v || !v.action) return;
    news = null;
    say(v.action + ": " + (v.outcome && v.outcome.length ? v.outcome[0] : "done"));
  }
  viewer.on(function (vw, what) { if (what === "added") sayNews(); });

  /* --- where the seat stands ----------------------------------------------------------- */
  function showSeat() {
    you.textContent = seat ? "you play " + seat : "watching (no seat): you cannot act";
    you.setAttribute("data-seat", seat || "");
    var o = offers;
    if (over) { turn.textContent = "the battle is over"; return; }
    if (!o) { turn.textContent = "joining..."; return; }
    var d = o.deciding;
    var mine = seat && o.acting === seat;
    if (d) {           // who must answer what: a decision is no one's turn
      var line = d.line || d.side + " decides " + d.kind + (d.secret ? " (secret)" : "");
      var head = d.side + " decides ";
      mine = seat && d.side === seat;
      turn.textContent = mine && line.indexOf(head) === 0 ?
        "you decide " + line.slice(head.length) : "waiting: " + line;
      turn.setAttribute("data-deciding", d.side);
    } else {
      turn.textContent = (mine ? "your turn: " : "") + (o.acting || "?") + " to act";
      turn.removeAttribute("data-deciding");
    }
    turn.className = mine ? "mine" : "";
  }

  function askOffers() {
    if (over) { offers = null; showOffers(); return; }
    send({type: "offers"});
  }

  function showOffers() {
    actionsBox.textContent = "";
    formsBox.textContent = "";
    var o = offers;
    showSeat();
    closeConfirm();
    var back = o && o.retract && seat && !over ? o.retract : null;
    if (!o || !seat || o.acting !== seat || over) {
      if (back) takeBackButton(back);
      actionsBox.setAttribute("data-offers", o ? String(o.version) : "");
      return;
    }
    var now = Date.now(), made = [];
    (o.buttons || []).forEach(function (b) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "act " + b.kind;
      button.textContent = b.label;
      button.title = b.why ? b.label + " cannot be given now: " + b.why : (b.tip || "");
      if (b.why) { button.disabled = true; button.setAttribute("data-why", b.why); }
      button.setAttribute("data-action", JSON.stringify(b.action));
      button.setAttribute("data-kind", b.kind);
      if (b.spends) button.setAttribute("data-spends", "true");
      button.addEventListener("click", function (ev) {
        if (blocked(button, ev)) return;             // it just appeared (view/guard.py)
        var action = JSON.parse(button.getAttribute("data-action"));
        if (b.spends) confirmFirst(b, action);
        else act(action);
      });
      actionsBox.appendChild(button);
      guard(button);
      made.push(button);
    });
    if (back) made.push(takeBackButton(back));   // the last: after what the turn offers
    setTimeout(function () {                  // these buttons (not later ones) take clicks now
      made.forEach(function (b) { if (!b.disabled) b.setAttribute("data-ready", "true"); });
    }, GUARD_MS);
    (o.forms || []).forEach(function (f) { formsBox.appendChild(form(f)); });
    if ((o.reserve || []).length) formsBox.appendChild(reserveList(o.reserve));
    var units = Object.keys(o.drag || {});
    if (units.length) {
      var hint = document.createElement("p");
      hint.className = "hint";
      hint.textContent = "drag a unit to " + uniq(units.map(function (u) { return o.drag[u].abilities[0]; })).join(" / ") +
                         " (Shift: one model)";
      actionsBox.appendChild(hint);
    }
    actionsBox.setAttribute("data-offers", String(o.version));
  }
  // The seat's last action, while the server says it may be taken back.
  function takeBackButton(r) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "act take-back";
    button.textContent = "take back " + r.what;
    button.title = "the game as it was before your " + r.what + " (the other side has not acted since)";
    button.setAttribute("data-retract", String(r.version));
    button.addEventListener("click", function (ev) {
      if (blocked(button, ev) || !seat || unanswered) return;
      var id = seat + "-" + known + "-" + (++ids) + "-back";
      unanswered = {type: "retract", id: id, version: r.version};
      actionsBox.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
      say("taking back " + r.what + ": waiting for the server");
      send(unanswered);
    });
    actionsBox.appendChild(button);
    guard(button);
    setTimeout(function () { button.setAttribute("data-ready", "true"); }, GUARD_MS);
    return button;
  }
  function uniq(list) { return list.filter(function (x, i) { return list.indexOf(x) === i; }); }

  // An action no button can give: its fields written by the player, checked by a preview.
  function form(f) {
    var box = document.createElement("details");
    box.className = "form";
    var head = document.createElement("summary");
    head.textContent = f.type + (f.does ? ": " + f.does : "");
    box.appendChild(head);
    var text = document.createElement("textarea");
    var example = {};
    for (var k in f.example || {}) if (Object.prototype.hasOwnProperty.call(f.example, k)) example[k] = f.example[k];
    example.type = f.type;
    text.value = JSON.stringify(example);
    text.rows = 3;
    text.setAttribute("aria-label", f.type + " as JSON (fields: " + f.fields.join(", ") + ")");
    var button = document.createElement("button");
    button.type = "button";
    button.className = "act form-send";
    button.textContent = "send " + f.type;
    var verdict = document.createElement("div");
    verdict.className = "verdict";
    function update() {
      var action;
      try { action = JSON.parse(text.value); } catch (e) { verdict.textContent = "not JSON yet"; return; }
      button.setAttribute("data-action", JSON.stringify(action));
      ask(action, function (answer) {
        verdict.textContent = answer.legal ? "legal" : "illegal: " + answer.violations.map(function (v) { return v.message; }).join("; ");
        verdict.className = "verdict " + (answer.legal ? "ok" : "bad");
      });
    }
    text.addEventListener("input", update);
    button.addEventListener("click", function () {
      var action;
      try { action = JSON.parse(button.getAttribute("data-action") || text.value); } catch (e) { return; }
      act(action);
    });
    box.appendChild(text);
    box.appendChild(button);
    box.appendChild(verdict);
    update();
    return box;
  }

  /* --- acting ------------------------------------------------------------------------------ */
  function act(action) {
    if (!seat || unanswered) return false;
    actionsBox.querySelectorAll("button").forEach(function (b) { b.removeAttribute("data-ready"); });
    var id = seat + "-" + known + "-" + (++ids);
    unanswered = {type: "act", id: id, action: action};
    actionsBox.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    say("sent " + action.type + (action.unit ? " " + action.unit : "") + ": waiting for the server");
    send(unanswered);
    return true;
  }

  // Previews: one in flight; the newest wanted is sent when the last is answered.
  var waiting = {}, inFlight = null, next = null, lastSent = 0;
  function ask(action, then, rest) {
    next = {action: action, then: then, rest: rest !== false};
    pump();
  }
  function pump() {
    if (inFlight || !next) return;
    var wait = Math.max(PREVIEW_MS - (Date.now() - lastSent), pausedUntil - Date.now());
    if (wait > 0) { setTimeout(pump, wait); return; }
    var id = "p" + (++ids);
    inFlight = id;
    waiting[id] = next.then;
    lastSent = Date.now();
    if (!send({type: "preview", id: id, action: next.action, rest: next.rest})) {
      inFlight = null; delete waiting[id]; return;
    }
    next = null;
  }
  function answered(msg) {
    if (msg.retry_after) pausedUntil = Date.now() + msg.retry_after * 1000;   // the server's rate
    var then = waiting[msg.id];
    delete waiting[msg.id];
    if (inFlight === msg.id) inFlight = null;
    if (then) then(msg);
    pump();
  }

  /* --- the deployment phase: the reserve list ------------------------------------------ */
  // offers.reserve (server/reserve_offers.py): the units (or faction terrain) the seat may set
  // up, each with its block's places and footprints round the origin. Press a row and drag (or
  // click it, then click the table): the shape follows the pointer, each place is checked by a
  // preview as a drag is, and the drop sends the deploy the engine took; Escape puts it back.
  var setting = null;
  function reserveList(entries) {
    var box = document.createElement("div");
    box.className = "reserve";
    box.id = "reserve";
    var title = document.createElement("p");
    title.className = "hint";
    title.textContent = entries[0].terrain ? "your faction terrain first: drag it onto your territory"
                                           : "in reserve: drag a unit onto your territory";
    box.appendChild(title);
    entries.forEach(function (entry) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "reserve-row";
      b.textContent = entry.label + (entry.regiment ? "  [" + entry.regiment + "]" : "");
      b.setAttribute(entry.terrain ? "data-reserve-terrain" : "data-reserve-unit", entry.terrain || entry.unit);
      b.addEventListener("pointerdown", function (ev) { pickReserve(entry, ev, b); });
      box.appendChild(b);
    });
    return box;
  }
  function pickReserve(entry, ev, row) {
    if (!seat || over || unanswered || !offers || offers.acting !== seat || hand) return;
    ev.preventDefault();
    putReserveBack("");
    setting = {entry: entry, pointer: ev.pointerId, at: null, answer: null, answerFor: null,
               row: row, pressed: true};
    row.setAttribute("data-held", "true");
    ghostLayer.textContent = "";
    entry.feet.forEach(function (foot, k) {
      var poly = document.createElementNS("http://www.w3.org/2000/svg", "polygon");
      poly.setAttribute("data-reserve-ghost", String(k));
      poly.setAttribute("class", "reserve-ghost");
      poly.setAttribute("visibility", "hidden");
      ghostLayer.appendChild(poly);
    });
    preview.hidden = false;
    preview.setAttribute("data-legal", "");
    preview.setAttribute("data-codes", "");
    preview.setAttribute("data-state", "checking");
    preview.textContent = (entry.unit || entry.terrain) + ": drag it onto your territory (Escape: back)";
  }
  function setUpAction(s) {
    var x = s.at[0], y = s.at[1], e = s.entry;
    if (e.terrain) return {type: "deploy-faction-terrain", terrain: e.terrain, at: [[round(x), round(y)]]};
    return {type: "deploy", unit: e.unit, facing: e.facing,
            at: e.block.map(function (d) { return [round(x + d[0]), round(y + d[1])]; })};
  }
  function overTable(ev) {
    var r = svg.getBoundingClientRect();
    return ev.clientX >= r.left && ev.clientX <= r.right && ev.clientY >= r.top && ev.clientY <= r.bottom;
  }
  function moveReserve(ev) {
    var s = setting;
    if (!s || ev.pointerId !== s.pointer) return;
    if (!overTable(ev)) return;
    ev.preventDefault();
    s.at = tablePoint(ev);
    var x = s.at[0], y = s.at[1];
    ghostLayer.querySelectorAll("[data-reserve-ghost]").forEach(function (g) {
      var foot = s.entry.feet[parseInt(g.getAttribute("data-reserve-ghost"), 10)];
      g.setAttribute("points", foot.map(function (p) { return (x + p[0]) + "," + (D - (y + p[1])); }).join(" "));
      g.setAttribute("visibility", "visible");
    });
    var action = setUpAction(s), key = JSON.stringify(action);
    s.asked = key;
    ask(action, function (answer) {
      if (setting !== s || answer.type === "error") return;
      s.answer = answer;
      s.answerFor = key;
      showReserve(answer);
    });
  }
  function showReserve(answer) {
    preview.setAttribute("data-legal", answer.legal ? "true" : "false");
    preview.setAttribute("data-codes", (answer.violations || []).map(function (v) { return v.code; }).join(" "));
    preview.setAttribute("data-state", "checked");
    svg.setAttribute("data-setting-up", answer.legal ? "legal" : "illegal");
    preview.textContent = answer.legal ? "legal: release to set it up here" :
      "illegal: " + answer.violations.map(function (v) { return v.message; }).join("; ");
  }
  function dropReserve(ev) {
    var s = setting;
    if (!s || ev.pointerId !== s.pointer) return;
    if (!overTable(ev) || !s.at) {          // released over the list: click the table next
      s.pressed = false;
      return;
    }
    ev.preventDefault();
    s.at = tablePoint(ev);
    var action = setUpAction(s), key = JSON.stringify(action);
    function decide(answer) {
      if (setting !== s) return;
      if (!answer || answer.type === "error") { putReserveBack("the server is busy: drop it again", true); return; }
      if (!answer.legal) {
        putReserveBack("kept in reserve: " + answer.violations.map(function (v) { return v.message; }).join("; "), true);
        return;
      }
      putReserveBack("");
      act(answer.action || action);
    }
    if (s.answer && s.answerFor === key) decide(s.answer);
    else ask(action, decide);
  }
  function putReserveBack(why, bad) {
    if (setting && setting.row) setting.row.removeAttribute("data-held");
    if (setting) {
      ghostLayer.textContent = "";
      svg.removeAttribute("data-setting-up");
      if (preview.getAttribute("data-state") !== null) preview.setAttribute("data-state", "idle");
    }
    setting = null;
    if (why !== undefined && why !== "") say(why, bad);
  }
  document.addEventListener("pointermove", moveReserve);
  document.addEventListener("pointerup", dropReserve);
  document.addEventListener("keydown", function (ev) { if (ev.key === "Escape" && setting) putReserveBack("kept in reserve"); });

  /* --- dragging ------------------------------------------------------------------------ */
  function tablePoint(ev) {
    var p = svg.createSVGPoint();
    p.x = ev.clientX; p.y = ev.clientY;
    var q = p.matrixTransform(svg.getScreenCTM().inverse());
    return [q.x, D - q.y];
  }
  function modelsOf(unit) {
    return Array.prototype.slice.call(svg.querySelectorAll('[data-model][data-unit="' + cssEscape(unit) + '"]'))
      .filter(function (e) { return e.getAttribute("data-slain") !== "true"; });
  }
  function cssEscape(s) { return window.CSS && CSS.escape ? CSS.escape(s) : s.replace(/"/g, '\\"'); }

  function pickUp(ev) {
    if (!seat || over || unanswered || !offers || offers.acting !== seat || setting) return;
    var target = ev.target.closest && ev.target.closest("[data-model]");
    if (!target) return;
    var unit = target.getAttribute("data-unit"), info = (offers.drag || {})[unit];
    if (!info) {
      if (target.getAttribute("data-side") === seat) say(unit + " cannot be moved now");
      return;
    }
    ev.preventDefault();
    var single = ev.shiftKey ? target.getAttribute("data-model") : null;
    var refName = single || info.ref;
    var ref = svg.querySelector('[data-model="' + cssEscape(refName) + '"]');
    if (!ref) return;
    var at = tablePoint(ev);
    var start = [parseFloat(ref.getAttribute("data-x")), parseFloat(ref.getAttribute("data-y"))];
    var models = single ? [target] : modelsOf(unit);
    hand = {unit: unit, ability: info.abilities[0], single: single, ref: refName, start: start,
            grab: [at[0] - start[0], at[1] - start[1]], to: start, target: null, models: models,
            pointer: ev.pointerId, answer: null, asked: null, still: null, moved: false};
    models.forEach(function (m) { m.classList.add("in-hand"); });
    svg.classList.add("dragging");            // the drop's tags say who would hold what
    var label = svg.querySelector('[data-label-for="' + cssEscape(unit) + '"]');
    if (label) label.classList.add("in-hand");
    ghostLayer.textContent = "";
    models.forEach(function (m) {
      var copy = m.cloneNode(true);
      copy.removeAttribute("data-model");
      copy.setAttribute("data-ghost", m.getAttribute("data-model"));
      copy.setAttribute("data-transform", m.getAttribute("transform"));
      ghostLayer.appendChild(copy);
    });
    try { svg.setPointerCapture(ev.pointerId); } catch (e) { /* a synthetic pointer */ }
    preview.hidden = false;
    preview.setAttribute("data-legal", "");
    preview.setAttribute("data-codes", "");
    preview.setAttribute("data-state", "checking");
    preview.textContent = hand.ability + " " + unit + ": checking...";
  }

  function dragAction(h) {
    var a = {type: h.ability, unit: h.unit};
    var path = [h.start, [round(h.to[0]), round(h.to[1])]];
    if (h.single) {
      var n = h.single.slice(h.single.lastIndexOf("/") + 1), paths = {};
      paths[n] = path;
      a.paths = paths;
    } else a.path = path;
    if (h.target) a.target = h.target;
    return a;
  }
  function round(v) { return Math.round(v * 10000) / 10000; }

  function move(ev) {
    if (!hand || ev.pointerId !== hand.pointer) return;
    ev.preventDefault();
    var at = tablePoint(ev);
    hand.to = [at[0] - hand.grab[0], at[1] - hand.grab[1]];
    if (Math.hypot(hand.to[0] - hand.start[0], hand.to[1] - hand.start[1]) > 0.05) hand.moved = true;
    var under = document.elementFromPoint(ev.clientX, ev.clientY);
    var enemy = under && under.closest && under.closest("[data-model]");
    hand.target = enemy && enemy.getAttribute("data-side") !== seat ? enemy.getAttribute("data-unit") : null;
    var dx = hand.to[0] - hand.start[0], dy = -(hand.to[1] - hand.start[1]);
    ghostLayer.querySelectorAll("[data-ghost]").forEach(function (g) {
      g.setAttribute("transform", "translate(" + dx + " " + dy + ") " + g.getAttribute("data-transform"));
    });
    if (!hand.moved) return;
    check(hand, null, false);                 // on the move: what a frame's rulings cost
    var h = hand;
    clearTimeout(h.resting);
    h.resting = setTimeout(function () { if (hand === h) check(h, null, true); }, REST_MS);
  }

  function check(h, then, rest) {
    var action = dragAction(h), key = JSON.stringify(action) + (rest ? " at rest" : "");
    h.asked = key;
    ask(action, function (answer) {
      if (hand !== h) return;
      if (answer.type === "error") { if (then) then(null); return; }
      h.answer = answer;
      h.answerFor = key;
      show(answer);
      preview.setAttribute("data-at", action.path ? action.path[1].map(function (v) { return v.toFixed(2); }).join(",") :
                           (action.paths ? action.paths[Object.keys(action.paths)[0]][1].map(function (v) { return v.toFixed(2); }).join(",") : ""));
      if (then) then(answer);
    });
  }

  function show(answer) {
    if (answer.still) { hand.still = answer.still; depict.fill(stillLayer, answer.still); }
    var layers = (answer.overlay || {}).layers || {};
    dragLayer.textContent = "";
    (layers.drag || []).concat(layers.labels || []).forEach(function (s) { dragLayer.appendChild(depict.shape(s)); });
    // the answer's labels are the table's own too, each where it went (moved aside where the
    // drop would cover it: depiction.drag.with_table): the table's label layer waits hidden
    if (layers.labels) svg.setAttribute("data-labels-moved", "true");
    preview.setAttribute("data-legal", answer.legal ? "true" : "false");
    preview.setAttribute("data-codes", (answer.violations || []).map(function (v) { return v.code; }).join(" "));
    preview.setAttribute("data-state", "checked");
    preview.setAttribute("data-rest", answer.rest === false ? "false" : "true");
    preview.setAttribute("data-used", answer.used !== undefined ? String(answer.used) : "");
    preview.textContent = "";
    (answer.caption || [answer.legal ? "legal" : "illegal: " + answer.violations.map(function (v) { return v.message; }).join("; ")])
      .forEach(function (line) {
        var div = document.createElement("div");
        div.textContent = line;
        if (/^illegal/.test(line)) div.className = "bad";
        preview.appendChild(div);
      });
  }

  function drop(ev) {
    if (!hand || ev.pointerId !== hand.pointer) return;
    ev.preventDefault();
    var h = hand;
    if (!h.moved) { putBack(""); return; }
    var at = tablePoint(ev);
    h.to = [at[0] - h.grab[0], at[1] - h.grab[1]];
    h.dropping = true;
    clearTimeout(h.resting);
    var key = JSON.stringify(dragAction(h)) + " at rest";
    function decide(answer) {
      if (!answer) { putBack("the server is busy: drop it again", true); return; }
      if (!answer.legal) {
        putBack("snapped back: " + answer.violations.map(function (v) { return v.message; }).join("; "), true);
        return;
      }
      var action = answer.action;
      putBack("");
      act(action);
    }
    if (h.answer && h.answerFor === key) decide(h.answer);
    else check(h, decide, true);
  }

  function putBack(why, bad) {
    if (hand) {
      hand.models.forEach(function (m) { m.classList.remove("in-hand"); });
      var label = svg.querySelector(".in-hand[data-label-for]");
      if (label) label.classList.remove("in-hand");
    }
    hand = null;
    svg.classList.remove("dragging");
    svg.removeAttribute("data-labels-moved");
    if (preview.getAttribute("data-state") !== null) preview.setAttribute("data-state", "idle");
    ghostLayer.textContent = "";
    dragLayer.textContent = "";
    stillLayer.textContent = "";
    if (why !== undefined && why !== "") say(why, bad);
  }

  svg.addEventListener("pointerdown", pickUp);
  svg.addEventListener("pointermove", move);
  svg.addEventListener("pointerup", drop);
  svg.addEventListener("pointercancel", function () { putBack("put back"); });
  document.addEventListener("keydown", function (ev) { if (ev.key === "Escape" && hand) putBack("put back"); });

  /* --- the server's messages ---------------------------------------------------------- */
  live.listen(function (msg) {
    switch (msg.type) {
      case "hello":
        known = msg.version;
        if (unanswered) send(unanswered);           // the server answers a resent id again
        askOffers();
        break;
      case "event":
        known = Math.max(known, msg.version);
        if (unanswered && msg.id === unanswered.id) {
          unanswered = null;
          // worded as the game log words it once its version arrives (sayNews)
          say(msg.by + ": " + msg.action.type + (msg.action.unit ? " " + msg.action.unit : ""));
          news = msg.version;
          sayNews();
        }
        if (hand) putBack("the position changed: pick the unit up again");
        if (setting) putReserveBack("");
        askOffers();
        break;
      case "retracted":
        if (hand) putBack();
        if (unanswered && msg.id === unanswered.id) {
          unanswered = null;
          say("took back " + (msg.from - msg.version) + " action" + (msg.from - msg.version === 1 ? "" : "s") + ": choose again");
        } else say(msg.by + " took back " + (msg.from - msg.version) + " of their actions");
        known = msg.version;
        offers = null;
        showOffers();
        break;
      case "refused":
        if (unanswered && msg.id === unanswered.id) {
          unanswered = null;
          say("the server refused it: " + (msg.violations || []).map(function (v) { return v.message; }).join("; "), true);
          showOffers();
        }
        break;
      case "offers":
        // the same offers again (the page asks on joining and on every event, so two
        // answers may cross): nothing is redrawn, so a "yes" bar or a button under the
        // pointer stays as it was
        if (msg.version >= known) {
          var same = offers !== null && JSON.stringify(offers) === JSON.stringify(msg);
          offers = msg;
          if (!same) showOffers();
        }
        break;
      case "preview":
        answered(msg);
        break;
      case "error":
        if (unanswered && msg.id === unanswered.id && msg.retry_after) {
          var again = unanswered;                    // not taken for the rate: sent again
          say("the server is busy: sending it again in " + msg.retry_after + " s", true);
          setTimeout(function () { if (unanswered === again) send(again); }, msg.retry_after * 1000);
        } else if (msg.id !== undefined) answered(msg);
        else {
          say("the server says: " + msg.message, true);
          if (msg.retry_after) setTimeout(askOffers, msg.retry_after * 1000);
        }
        break;
      case "over":
        over = true;
        offers = null;
        news = null;         // the result is the news now
        putBack();
        putReserveBack();
        preview.hidden = true;               // no drag's verdict stays up past the end
        showOffers();
        var r = msg.result || {};
        say("the battle is over: " + (r.winner ? r.winner + " wins" : "a draw") + (r.by ? " (" + r.by + ")" : ""));
        break;
      case "status":
        if (msg.status === "reconnecting") {
          say("connection lost: joining again", true);
          if (hand) putBack();
          inFlight = null;
        }
        break;
    }
  });
  showSeat();
  if (live.status.getAttribute("data-state") === "live") askOffers();
  window.battlefield.play = {offers: function () { return offers; }, act: act, preview: ask};
})();
