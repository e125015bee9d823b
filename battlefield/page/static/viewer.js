/* battlefield's page viewer: hover details on a ruling, and a game's versions shown one at a
   time in the same SVG (models moved by their transform; the objectives, combat links,
   rulings, marks and labels redrawn from each version's overlay, the depiction Python made:
   page/static/depict.js draws it, nothing here decides what to draw), with a slider, step
   buttons, a side panel and #v=N links.

   API (window.Battlefield):
     Battlefield.start(kind)          read the page's JSON data and wire the page up; returns
                                      {viewer, panel} ("replay") or {hover} ("ruling")
     new Battlefield.Viewer(svg, meta)  meta: {depth, palette, names, units}
     viewer.addVersion(version)       append the next version (see battlefield/page/replay.py:
                                      {v, clock, models: {NAME: [x, y, facing, z] | null}
                                      (what changed), overlay: {LAYER: [shapes]} (the layers
                                      that changed), objectives, rulings, action, rolls,
                                      events, result}); a live page feeds them as they arrive
     viewer.show(n)                   draw version n (0 = the start)
     viewer.count, viewer.current, viewer.on(fn)  fn(viewer, what) after "added" / "shown"
   No network, no build step: this file is written inline into each page. */
(function () {
  "use strict";
  var FIELDS = 4;                     // x, y, facing, z per model
  var OVERLAY = ["objectives", "combat", "marks", "rulings", "labels"];

  function num(v) { return String(Math.round(v * 10000) / 10000); }
  function inches(v) { return (Math.round(v * 100) / 100).toFixed(2) + '"'; }
  function html(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  /* --- the viewer: versions of one table drawn in one SVG ------------------------------- */
  function Viewer(svg, meta) {
    var self = this;
    this.svg = svg;
    this.meta = meta;
    this.depth = meta.depth;
    this.names = meta.names || [];
    this.index = {};
    this.names.forEach(function (n, i) { self.index[n] = i; });
    this.models = new Array(this.names.length);
    svg.querySelectorAll("[data-model]").forEach(function (e) {
      var i = self.index[e.getAttribute("data-model")];
      if (i !== undefined) self.models[i] = e;
    });
    this.depict = new window.BattlefieldDepict(meta.depth, meta.palette);
    this.layers = {};
    this.drawn = {};                   // layer -> the shapes drawn in it now
    OVERLAY.forEach(function (name) { self.layers[name] = svg.querySelector("#" + name); });
    this.terrainLayer = svg.querySelector("#terrain");
    this.terrainDrawn = this.terrainLayer ? this.terrainLayer.innerHTML : null;
    this.versions = [];
    this.frames = [];
    this.shown = null;                 // the frame now drawn
    this.current = -1;
    this.listeners = [];
  }

  Object.defineProperty(Viewer.prototype, "count", {get: function () { return this.versions.length; }});

  Viewer.prototype.on = function (fn) { this.listeners.push(fn); };
  Viewer.prototype.emit = function (what) {
    for (var k = 0; k < this.listeners.length; k++) this.listeners[k](this, what);
  };

  Viewer.prototype.addVersion = function (version) {
    var n = this.versions.length, N = this.names.length;
    if (version.v !== undefined && version.v !== n)
      throw new Error("version " + version.v + " arrived where " + n + " was expected");
    var frame = n ? this.frames[n - 1].slice() : new Float64Array(N * FIELDS).fill(NaN);
    var models = version.models || {};
    for (var name in models) {
      if (!Object.prototype.hasOwnProperty.call(models, name)) continue;
      var i = this.index[name];
      if (i === undefined) continue;
      var p = models[name];
      for (var f = 0; f < FIELDS; f++) frame[i * FIELDS + f] = p === null ? NaN : (p[f] || 0);
    }
    if (!version.objectives && n) version.objectives = this.versions[n - 1].objectives;
    if (!version.marks && n) version.marks = this.versions[n - 1].marks;
    if (!version.abilities && n) version.abilities = this.versions[n - 1].abilities;
    // the terrain group's contents: the page's own at the start, a version's when terrain
    // was set up during the game (aos4's faction terrain), else the version before's
    if (version.terrain === undefined)
      version.terrain = n ? this.versions[n - 1].terrain : this.terrainDrawn;
    // Each version knows every layer: those it did not change are the version before's.
    var before = n ? this.versions[n - 1].layers : {}, layers = {}, over = version.overlay || {};
    OVERLAY.forEach(function (name) { layers[name] = over[name] !== undefined ? over[name] : before[name]; });
    version.layers = layers;
    this.versions.push(version);
    this.frames.push(frame);
    this.emit("added");
    return n;
  };

  // Versions from n on are gone (a seat took its actions back): the page shows the last kept.
  Viewer.prototype.truncate = function (n) {
    if (n < 1 || n >= this.versions.length) return;
    this.versions.length = n;
    this.emit("truncated");
  };

  Viewer.prototype.show = function (n) {
    if (!this.versions.length) return -1;
    n = Math.max(0, Math.min(this.versions.length - 1, Math.round(Number(n) || 0)));
    var frame = this.frames[n], shown = this.shown, N = this.names.length, D = this.depth;
    for (var i = 0; i < N; i++) {
      var o = i * FIELDS, same = shown !== null;
      for (var f = 0; same && f < FIELDS; f++) {
        var a = frame[o + f], b = shown[o + f];
        if (!(a === b || (a !== a && b !== b))) same = false;
      }
      if (same) continue;
      var e = this.models[i];
      if (!e) continue;
      var x = frame[o], y = frame[o + 1], facing = frame[o + 2], z = frame[o + 3];
      if (x !== x) {                                  // off the table (slain)
        e.setAttribute("display", "none");
        e.setAttribute("data-slain", "true");
        continue;
      }
      e.removeAttribute("display");
      e.removeAttribute("data-slain");
      e.setAttribute("transform", "translate(" + num(x) + " " + num(D - y) + ")" +
                     (facing ? " rotate(" + num(-facing) + ")" : ""));
      e.setAttribute("data-x", num(x));
      e.setAttribute("data-y", num(y));
      e.setAttribute("data-facing", num(facing));
      e.setAttribute("data-z", num(z));
      e.classList.toggle("raised", z > 0);
    }
    this.shown = frame;
    this.current = n;
    this.showOverlay(this.versions[n].layers);
    var ground = this.versions[n].terrain;
    if (this.terrainLayer && typeof ground === "string" && ground !== this.terrainDrawn) {
      this.terrainLayer.innerHTML = ground;
      this.terrainDrawn = ground;
    }
    this.emit("shown");
    return n;
  };

  // The depiction's layers of a version, each redrawn only when it differs from the one drawn.
  Viewer.prototype.showOverlay = function (layers) {
    for (var k = 0; k < OVERLAY.length; k++) {
      var name = OVERLAY[k], shapes = layers[name], layer = this.layers[name];
      if (!layer || shapes === undefined || shapes === this.drawn[name]) continue;
      this.depict.fill(layer, shapes);
      this.drawn[name] = shapes;
    }
  };

  /* --- hover details ------------------------------------------------------------------ */
  function Hover(svg, tip, data) {
    this.svg = svg; this.tip = tip; this.data = data;
    var self = this;
    svg.addEventListener("mousemove", function (ev) { self.move(ev); });
    svg.addEventListener("mouseleave", function () { tip.hidden = true; });
  }
  Hover.prototype.lines = function (target) {
    var d = this.data, m = target.closest("[data-model]");
    if (m) {
      var name = m.getAttribute("data-model"), unit = m.getAttribute("data-unit");
      var info = (d.units || {})[unit] || {};
      var out = [[name, "head"], [unit + " (" + (info.name || unit) + "), " + m.getAttribute("data-side"), ""]];
      if (info.profile) out.push([info.profile, "profile"]);
      (info.passive || []).forEach(function (t) { out.push([t, "ability"]); });
      out.push(["at (" + m.getAttribute("data-x") + ", " + m.getAttribute("data-y") + ")" +
                (parseFloat(m.getAttribute("data-z")) > 0 ? ", " + inches(parseFloat(m.getAttribute("data-z"))) + " up" : ""), "soft"]);
      if (d.distances && d.distances[name] !== undefined)
        out.push(["to " + d.target + ": " + inches(d.distances[name]), "distance"]);
      return out;
    }
    var o = target.closest("[data-objective]");
    if (o) {
      var id = o.getAttribute("data-objective"), side = o.getAttribute("data-controlled-by");
      var lines = [[id, "head"], [side ? "held by " + side : "unheld", ""]];
      var rep = (d.objectives || {})[id];
      if (rep && rep.totals && !d.versions) {
        var t = Object.keys(rep.totals).map(function (s) { return s + " " + rep.totals[s]; });
        if (t.length) lines.push([t.join(" v "), "soft"]);
      }
      return lines;
    }
    var tr = target.closest("[data-terrain]");
    if (tr) return [[tr.getAttribute("data-terrain"), "head"],
                    [tr.getAttribute("data-kind") + ", " + inches(parseFloat(tr.getAttribute("data-height"))) + " tall", ""]];
    return null;
  };
  Hover.prototype.move = function (ev) {
    var lines = this.lines(ev.target);
    if (!lines) { this.tip.hidden = true; return; }
    this.tip.textContent = "";
    var tip = this.tip;
    lines.forEach(function (l) { tip.appendChild(html("div", l[1], l[0])); });
    tip.hidden = false;
    var x = ev.clientX + 14, y = ev.clientY + 14;
    var w = tip.offsetWidth, h = tip.offsetHeight;
    if (x + w > window.innerWidth - 4) x = ev.clientX - w - 10;
    if (y + h > window.innerHeight - 4) y = ev.clientY - h - 10;
    tip.style.left = x + "px";
    tip.style.top = y + "px";
  };

  /* --- the replay panel: slider, steps, clock, log ------------------------------------ */
  function Panel(viewer, root) {
    var self = this;
    this.viewer = viewer;
    this.slider = root.querySelector("#slider");
    this.label = root.querySelector("#version");
    this.clock = root.querySelector("#clock");
    this.acting = root.querySelector("#acting");
    this.sides = root.querySelector("#sides");
    this.result = root.querySelector("#result");
    this.now = root.querySelector("#now");
    this.abilities = root.querySelector("#abilities");
    this.log = root.querySelector("#log");
    this.items = [];
    this.follow = true;                // a live page: stay on the newest version
    root.querySelectorAll("[data-step]").forEach(function (b) {
      b.addEventListener("click", function () { self.step(b.getAttribute("data-step")); });
    });
    this.slider.addEventListener("input", function () { self.go(self.slider.value); });
    document.addEventListener("keydown", function (ev) {
      if (ev.target && ev.target.tagName === "INPUT" && ev.target.type !== "range") return;
      var key = {ArrowLeft: "-1", ArrowRight: "+1", Home: "first", End: "last"}[ev.key];
      if (key) { ev.preventDefault(); self.step(key); }
    });
    window.addEventListener("hashchange", function () {
      var n = Panel.hashVersion();
      if (n !== null && n !== viewer.current) self.go(n, true);
    });
    viewer.on(function (v, what) {
      if (what === "added") self.added(v.versions[v.count - 1], v.count - 1);
      else if (what === "truncated") self.truncated();
      else self.shown(v.current);
    });
    viewer.versions.forEach(function (v, n) { self.added(v, n); });
  }
  Panel.hashVersion = function () {
    var m = /(?:^#|[#&])v=(\d+)/.exec(window.location.hash || "");
    return m ? parseInt(m[1], 10) : null;
  };
  Panel.prototype.step = function (how) {
    var v = this.viewer, n = v.current;
    if (how === "first") n = 0;
    else if (how === "last") n = v.count - 1;
    else n += parseInt(how, 10);
    this.go(n);
  };
  Panel.prototype.go = function (n, fromHash) {
    var shown = this.viewer.show(n);
    this.follow = shown === this.viewer.count - 1;
    if (!fromHash && window.history && window.history.replaceState) {
      try { window.history.replaceState(null, "", "#v=" + shown); } catch (e) { /* file: URLs may refuse */ }
    }
    return shown;
  };
  Panel.prototype.added = function (v, n) {
    var li = html("li", "entry");
    li.setAttribute("data-v", n);
    li.appendChild(html("div", "what", n === 0 ? "start" : n + ". " + (v.action || "")));
    (v.outcome || []).forEach(function (o) { li.appendChild(html("div", "outcome", o)); });
    (v.rolls || []).forEach(function (r) { li.appendChild(html("div", "roll", r)); });
    (v.events || []).forEach(function (e) { li.appendChild(html("div", "event", e)); });
    li.addEventListener("click", this.go.bind(this, n, false));
    this.log.insertBefore(li, this.log.firstChild);    // the newest first, as the window's log
    this.items.push(li);
    this.slider.max = String(this.viewer.count - 1);
    if (this.viewer.current >= 0 && this.follow && n === this.viewer.count - 1) this.go(n);
    else this.label.textContent = this.viewer.current + " / " + (this.viewer.count - 1);
  };
  Panel.prototype.truncated = function () {
    var n = this.viewer.count;
    while (this.items.length > n) this.log.removeChild(this.items.pop());
    this.slider.max = String(n - 1);
    this.go(n - 1);
  };
  Panel.prototype.shown = function (n) {
    var v = this.viewer.versions[n], c = v.clock || {};
    this.slider.value = String(n);
    this.label.textContent = n + " / " + (this.viewer.count - 1);
    // before the first turn nobody is active: say who decides (who goes first ...)
    var when = "round " + (c.round || 0) + " · " + (c.active ?
      c.active + "'s " + (c.phase ? c.phase + " phase" : "turn") :
      c.decider ? c.decider + (/first-turn|first|priority|initiative/.test(c.deciding || "") ?
                               " decides who goes first" : " decides") :
      "before the first turn");
    this.clock.textContent = when;
    this.acting.textContent = c.now ? c.now : c.over ? "the battle is over" :
      (c.deciding ? c.deciding : (c.acting || "?") + " to act");
    this.sides.textContent = "";
    var sides = this.sides;
    (v.sides || []).forEach(function (s) { sides.appendChild(html("div", "side", s)); });
    this.result.textContent = v.result || "";
    this.result.hidden = !v.result;
    this.now.textContent = "";
    this.now.appendChild(html("div", "what", n === 0 ? "the start" : n + ". " + (v.action || "")));
    var now = this.now;
    (v.outcome || []).forEach(function (o) { now.appendChild(html("div", "outcome", o)); });
    (v.rolls || []).forEach(function (r) { now.appendChild(html("div", "roll", r)); });
    (v.events || []).forEach(function (e) { now.appendChild(html("div", "event", e)); });
    if (this.abilities) {              // the acting side's abilities at this phase
      var list = this.abilities;
      list.textContent = "";
      (v.abilities || []).forEach(function (a) {
        var card = html("div", "card", "");
        card.setAttribute("data-ability", a.name);
        card.setAttribute("data-unit", a.unit);
        card.setAttribute("data-kind", a.kind);
        card.title = a.text;             // hover: the whole text
        card.appendChild(html("div", "card-head", a.unit + " · " + a.kind));
        card.appendChild(html("div", "card-line", a.line));
        list.appendChild(card);
      });
      list.hidden = !(v.abilities || []).length;
      if (list.previousElementSibling) list.previousElementSibling.hidden = list.hidden;
    }
    for (var k = 0; k < this.items.length; k++) {
      var on = k <= n;
      if (this.items[k].hidden === on) this.items[k].hidden = !on;
      this.items[k].classList.toggle("current", k === n);
    }
    var cur = this.items[n];
    if (cur && this.log.scrollHeight > this.log.clientHeight)     // the current one on top
      this.log.scrollTop = Math.max(0, cur.offsetTop - this.log.offsetTop - 8);
  };

  /* --- bench mode: #bench=K times K steps of the slider in the page itself ------------- */
  function bench(panel, svg) {
    var m = /bench=(\d+)/.exec(window.location.hash || "");
    if (!m) return;
    var steps = parseInt(m[1], 10), times = [], v = panel.viewer, last = v.count - 1;
    for (var w = 0; w < Math.min(5, last); w++) panel.go(last - w, true);     // warm up
    panel.go(0, true);
    void document.body.offsetHeight;
    for (var k = 0; k < steps; k++) {
      var n = last ? 1 + (k % last) : 0;
      var t = performance.now();
      panel.go(n, true);
      svg.getBoundingClientRect();
      void document.body.offsetHeight;           // the layout the step causes, included
      times.push(performance.now() - t);
    }
    var out = document.createElement("pre");
    out.id = "bench-result";
    out.textContent = JSON.stringify({steps: steps, versions: v.count, ms: times});
    document.body.appendChild(out);
  }

  function start(kind) {
    var data = JSON.parse(document.getElementById("battlefield-data").textContent);
    var svg = document.querySelector("svg.battlefield");
    var tip = document.getElementById("tip");
    var out = {data: data};
    if (tip && svg) out.hover = new Hover(svg, tip, data);
    if (kind === "replay") {
      var viewer = new Viewer(svg, data);
      (data.versions || []).forEach(function (v) { viewer.addVersion(v); });
      var panel = new Panel(viewer, document);
      var n = Panel.hashVersion();
      panel.go(n === null ? 0 : n, true);
      out.viewer = viewer;
      out.panel = panel;
      bench(panel, svg);
    }
    window.battlefield = out;
    return out;
  }

  window.Battlefield = {start: start, Viewer: Viewer, Panel: Panel, Hover: Hover, OVERLAY: OVERLAY};
})();
