/* battlefield's page viewer: hover details on a ruling, and a game's versions shown one at a
   time in the same SVG (models moved by their transform, objectives recoloured, rulings
   redrawn), with a slider, step buttons, a side panel and #v=N links.

   API (window.Battlefield):
     Battlefield.start(kind)          read the page's JSON data and wire the page up; returns
                                      {viewer, panel} ("replay") or {hover} ("ruling")
     new Battlefield.Viewer(svg, meta)  meta: {depth, colours, neutral, names, leaders, units}
     viewer.addVersion(version)       append the next version (see battlefield/page/replay.py:
                                      {v, clock, models: {NAME: [x, y, facing, z] | null}
                                      (what changed), objectives, rulings, action, rolls,
                                      events, result}); a live page feeds them as they arrive
     viewer.show(n)                   draw version n (0 = the start)
     viewer.count, viewer.current, viewer.on(fn)  fn(viewer, what) after "added" / "shown"
   No network, no build step: this file is written inline into each page. */
(function () {
  "use strict";
  var SVGNS = "http://www.w3.org/2000/svg";
  var FIELDS = 4;                     // x, y, facing, z per model

  function num(v) { return String(Math.round(v * 10000) / 10000); }
  function inches(v) { return (Math.round(v * 100) / 100).toFixed(2) + '"'; }
  function el(tag, attrs) {
    var e = document.createElementNS(SVGNS, tag);
    for (var k in attrs) { if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, attrs[k]); }
    return e;
  }
  function html(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function darker(hex, f) {
    var n = parseInt(hex.slice(1), 16), out = "#";
    [16, 8, 0].forEach(function (s) {
      var c = Math.round(((n >> s) & 255) * (1 - f));
      out += (c < 16 ? "0" : "") + c.toString(16);
    });
    return out;
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
    this.objectives = {};
    svg.querySelectorAll("[data-objective]").forEach(function (e) {
      self.objectives[e.getAttribute("data-objective")] = e;
    });
    this.objectiveLabels = {};
    svg.querySelectorAll("[data-label-objective]").forEach(function (e) {
      self.objectiveLabels[e.getAttribute("data-label-objective")] = e;
    });
    // A unit's label keeps its place relative to the unit's leader.
    this.labels = {};
    svg.querySelectorAll("[data-label-for]").forEach(function (e) {
      self.labels[e.getAttribute("data-label-for")] = {
        el: e, x: parseFloat(e.getAttribute("x")), y: parseFloat(e.getAttribute("y"))};
    });
    this.rulingsLayer = svg.querySelector("#rulings");
    this.marksLayer = svg.querySelector("#marks");
    this.marksShown = null;
    this.combatLayer = svg.querySelector("#combat");
    this.versions = [];
    this.frames = [];
    this.shown = null;                 // the frame now drawn
    this.current = -1;
    this.listeners = [];
    this.home = null;                  // label anchors: the leaders' places in version 0
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
    this.versions.push(version);
    this.frames.push(frame);
    if (n === 0) this.home = frame;
    this.emit("added");
    return n;
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
    var v = this.versions[n];
    this.moveLabels(frame);
    this.showObjectives(v.objectives || {});
    this.showRulings(v.rulings);
    this.showMarks(v.marks);
    this.emit("shown");
    return n;
  };

  Viewer.prototype.leaderOf = function (unit, frame) {
    var info = (this.meta.units || {})[unit];
    if (!info) return -1;
    var lead = info.first + info.leader;
    if (frame[lead * FIELDS] === frame[lead * FIELDS]) return lead;
    for (var k = 0; k < info.count; k++) {
      var i = info.first + k;
      if (frame[i * FIELDS] === frame[i * FIELDS]) return i;
    }
    return -1;
  };

  Viewer.prototype.moveLabels = function (frame) {
    for (var unit in this.labels) {
      var label = this.labels[unit], now = this.leaderOf(unit, frame);
      var was = this.leaderOf(unit, this.home);
      if (now < 0 || was < 0) { label.el.setAttribute("display", "none"); continue; }
      label.el.removeAttribute("display");
      var dx = frame[now * FIELDS] - this.home[was * FIELDS];
      var dy = -(frame[now * FIELDS + 1] - this.home[was * FIELDS + 1]);
      label.el.setAttribute("x", num(label.x + dx));
      label.el.setAttribute("y", num(label.y + dy));
      var text = unit + this.raised(unit, frame);
      if (label.el.textContent !== text) label.el.textContent = text;
    }
  };

  // ' +2.5"' when every model of the unit on the table stands that high, else "".
  Viewer.prototype.raised = function (unit, frame) {
    var info = (this.meta.units || {})[unit], z = null;
    if (!info) return "";
    for (var k = 0; k < info.count; k++) {
      var o = (info.first + k) * FIELDS;
      if (frame[o] !== frame[o]) continue;
      var h = Math.round(frame[o + 3] * 100) / 100;
      if (!(h > 0) || (z !== null && h !== z)) return "";
      z = h;
    }
    return z ? " +" + z + '"' : "";
  };

  Viewer.prototype.showObjectives = function (held) {
    for (var id in this.objectives) {
      var g = this.objectives[id], side = held[id] || "";
      if (g.getAttribute("data-controlled-by") === side) continue;
      g.setAttribute("data-controlled-by", side);
      var c = side ? (this.meta.colours[side] || this.meta.neutral) : this.meta.neutral;
      var zone = g.querySelector(".zone"), marker = g.querySelector(".marker");
      if (zone) {
        zone.setAttribute("fill", c);
        zone.setAttribute("fill-opacity", side ? "0.16" : "0.11");
        zone.setAttribute("stroke", darker(c, 0.15));
      }
      if (marker) {
        marker.setAttribute("fill", side ? c : "#cdcdc8");
        marker.setAttribute("stroke", darker(c, 0.55));
      }
      var label = this.objectiveLabels[id];
      if (label) {
        var home = g.getAttribute("data-home");
        var text = id + (side ? ": " + side : "");
        if (home && id.toLowerCase().indexOf(home.toLowerCase()) < 0) text += " (" + home + " home)";
        label.textContent = text;
        label.setAttribute("fill", side ? darker(c, 0.45) : "#1e1e1e");
      }
    }
  };

  Viewer.prototype.ring = function (name, grow, under, underW, over, overW, what) {
    var m = this.models[this.index[name]];
    var base = m && m.querySelector(".base");
    if (!base) return null;
    var d, a, b, g = el("g", {"data-ruling": what, "data-for": name,
                              transform: m.getAttribute("transform")});
    var edge = 0.0275 + grow;
    if (base.tagName === "rect") {
      a = -parseFloat(base.getAttribute("x")) + edge;
      b = -parseFloat(base.getAttribute("y")) + edge;
      d = "M" + num(-a) + " " + num(-b) + "H" + num(a) + "V" + num(b) + "H" + num(-a) + "Z";
    } else {
      a = parseFloat(base.getAttribute(base.tagName === "circle" ? "r" : "rx")) + edge;
      b = parseFloat(base.getAttribute(base.tagName === "circle" ? "r" : "ry")) + edge;
      d = "M" + num(a) + " 0A" + num(a) + " " + num(b) + " 0 1 1 " + num(-a) + " 0A" +
          num(a) + " " + num(b) + " 0 1 1 " + num(a) + " 0Z";
    }
    g.appendChild(el("path", {d: d, fill: "none", stroke: under, "stroke-width": underW}));
    g.appendChild(el("path", {d: d, fill: "none", stroke: over, "stroke-width": overW}));
    return g;
  };

  Viewer.prototype.showRulings = function (rulings) {
    if (!rulings || !this.rulingsLayer) return;
    var D = this.depth, self = this;
    this.rulingsLayer.textContent = "";
    if (this.combatLayer) this.combatLayer.textContent = "";
    (rulings.breaks || []).forEach(function (name) {
      var g = self.ring(name, 0.15, "#fff", 0.22, "#e6007e", 0.14, "coherency");
      if (g) self.rulingsLayer.appendChild(g);
    });
    (rulings.combat || []).forEach(function (c) {
      var d = "M" + num(c[0]) + " " + num(D - c[1]) + "L" + num(c[2]) + " " + num(D - c[3]);
      if (self.combatLayer) {
        self.combatLayer.appendChild(el("path", {d: d, stroke: "#fff", "stroke-width": 0.4, "stroke-linecap": "round"}));
        self.combatLayer.appendChild(el("path", {d: d, stroke: "#191919", "stroke-width": 0.25, "stroke-linecap": "round"}));
      }
      var x = c[4], y = D - c[5], k = 0.15;
      var g = el("g", {"data-ruling": "combat", "data-a": c[6] || "", "data-b": c[7] || ""});
      g.appendChild(el("circle", {cx: num(x), cy: num(y), r: 0.4, fill: "#fff"}));
      g.appendChild(el("circle", {cx: num(x), cy: num(y), r: 0.3, fill: "#191919"}));
      g.appendChild(el("path", {d: "M" + num(x - k) + " " + num(y - k) + "L" + num(x + k) + " " +
        num(y + k) + "M" + num(x - k) + " " + num(y + k) + "L" + num(x + k) + " " + num(y - k),
        stroke: "#fff", "stroke-width": 0.08}));
      self.rulingsLayer.appendChild(g);
    });
  };

  function lighter(hex, f) {
    var n = parseInt(hex.slice(1), 16), out = "#";
    [16, 8, 0].forEach(function (s) {
      var c = (n >> s) & 255;
      c = Math.round(c + (255 - c) * f);
      out += (c < 16 ? "0" : "") + c.toString(16);
    });
    return out;
  }

  function tag(text, x, y, edge) {
    var size = 0.5, w = text.length * size * 0.56 + 0.4, h = size * 1.5;
    var g = el("g", {"class": "tag"});
    g.appendChild(el("rect", {x: num(x - w / 2), y: num(y - h / 2), width: num(w), height: num(h),
      fill: "#fff", stroke: edge, "stroke-width": 0.05, rx: 0.05}));
    var t = el("text", {x: num(x), y: num(y), "font-size": size, fill: edge, style: "stroke:none"});
    t.textContent = text;
    g.appendChild(t);
    return g;
  }

  // The ruleset's marks (window.Mark), drawn as battlefield/page/overlays.py marks() does.
  Viewer.prototype.showMarks = function (marks) {
    if (!this.marksLayer || !marks || marks === this.marksShown) return;
    var layer = this.marksLayer, D = this.depth, meta = this.meta;
    layer.textContent = "";
    this.marksShown = marks;
    marks.forEach(function (mark) {
      var pts = mark.points.map(function (p) { return [p[0], D - p[1]]; });
      if (pts.length < 2) return;
      var side = mark.side && (meta.colours[mark.side] || meta.neutral);
      var colour = side ? darker(side, 0.45) : "#1e1e1e";
      var d = "M" + pts.map(function (p) { return num(p[0]) + " " + num(p[1]); }).join("L");
      var first = pts[0], last = pts[pts.length - 1];
      var g = el("g", {"data-mark": mark.kind});
      if (mark.label) g.setAttribute("data-label", mark.label);
      if (mark.kind === "edge") {
        var e = "M" + num(first[0]) + " " + num(first[1]) + "L" + num(last[0]) + " " + num(last[1]);
        g.appendChild(el("path", {d: e, stroke: "#fff", "stroke-width": 0.3}));
        g.appendChild(el("path", {d: e, stroke: "#191919", "stroke-width": 0.2}));
      } else if (mark.kind === "outline") {
        g.appendChild(el("path", {d: d + " Z", fill: "none",
          stroke: mark.label ? colour : (side ? lighter(side, 0.35) : "#5f5f5a"),
          "stroke-width": mark.label ? 0.125 : 0.05}));
      } else if (mark.kind === "path") {
        g.appendChild(el("path", {d: d, fill: "none", stroke: colour, "stroke-width": 0.1,
                                  "stroke-dasharray": "0.4 0.4"}));
        g.appendChild(el("circle", {cx: num(last[0]), cy: num(last[1]), r: 0.15, fill: colour}));
      } else {
        var a = pts[pts.length - 2], ang = Math.atan2(last[1] - a[1], last[0] - a[0]);
        var wing = [0.45, -0.45].map(function (s) {
          return num(last[0] - 0.4 * Math.cos(ang - s)) + "," + num(last[1] - 0.4 * Math.sin(ang - s));
        });
        g.appendChild(el("path", {d: d, fill: "none", stroke: colour, "stroke-width": 0.1,
                                  "stroke-linejoin": "round"}));
        g.appendChild(el("polygon", {points: num(last[0]) + "," + num(last[1]) + " " + wing.join(" "),
                                     fill: colour}));
      }
      if (mark.label) {
        var at = mark.kind === "arrow" ? [(first[0] + last[0]) / 2, (first[1] + last[1]) / 2]
                                       : [last[0], last[1] - 0.6];
        g.appendChild(tag(mark.label, at[0], at[1], colour));
      }
      layer.appendChild(g);
    });
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
    this.log.appendChild(li);
    this.items.push(li);
    this.slider.max = String(this.viewer.count - 1);
    if (this.viewer.current >= 0 && this.follow && n === this.viewer.count - 1) this.go(n);
    else this.label.textContent = this.viewer.current + " / " + (this.viewer.count - 1);
  };
  Panel.prototype.shown = function (n) {
    var v = this.viewer.versions[n], c = v.clock || {};
    this.slider.value = String(n);
    this.label.textContent = n + " / " + (this.viewer.count - 1);
    var when = "round " + (c.round || 0) + " · " + (c.active || "?") + "'s " +
               (c.phase ? c.phase + " phase" : "turn");
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
    for (var k = 0; k < this.items.length; k++) {
      var on = k <= n;
      if (this.items[k].hidden === on) this.items[k].hidden = !on;
      this.items[k].classList.toggle("current", k === n);
    }
    var cur = this.items[n];
    if (cur && this.log.scrollHeight > this.log.clientHeight)
      this.log.scrollTop = cur.offsetTop - this.log.offsetTop - this.log.clientHeight + cur.offsetHeight + 8;
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

  window.Battlefield = {start: start, Viewer: Viewer, Panel: Panel, Hover: Hover};
})();
