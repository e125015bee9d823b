/* battlefield's depiction in the browser: the shapes Python decided (battlefield/depiction,
   written to SVG text by battlefield/page/depict.py) made into SVG elements, the same elements
   with the same attributes. It decides nothing: no palette of its own (colours come as the
   page's `palette`, keys resolved by Python), no rules, no placing of labels.

   API (window.BattlefieldDepict):
     var d = new BattlefieldDepict(depth, palette)   the board's depth in inches; key -> #rrggbb
     d.shape(shape) -> Element                       one shape (a group: its children within)
     d.fill(layerElement, shapes)                    the layer's children replaced by shapes
   No network, no build step: this file is written inline into each page. */
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var LINE = 0.05, SIZES = {label: 0.68, small: 0.5};
  var WIDTHS = [278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667,
    667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667,
    611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556,
    278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722,
    500, 500, 500, 334, 260, 334, 584];

  function num(v) {
    var s = (Math.round(v * 10000) / 10000).toFixed(4).replace(/0+$/, "").replace(/\.$/, "");
    return s === "-0" || s === "" ? "0" : s;
  }
  function textWidth(text, size) {             // as battlefield/depiction/metrics.py
    var w = 0;
    for (var k = 0; k < text.length; k++) {
      var c = text.charCodeAt(k) - 32;
      w += (c >= 0 && c < WIDTHS.length ? WIDTHS[c] : 556) / 1000;
    }
    return w * size;
  }
  function el(tag, attrs, text) {
    var e = document.createElementNS(NS, tag);
    for (var k in attrs) {
      if (Object.prototype.hasOwnProperty.call(attrs, k) && attrs[k] !== null && attrs[k] !== undefined)
        e.setAttribute(k, attrs[k]);
    }
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function merge(a, b) {
    var out = {}, k;
    for (k in a) if (Object.prototype.hasOwnProperty.call(a, k)) out[k] = a[k];
    for (k in b) if (Object.prototype.hasOwnProperty.call(b, k)) out[k] = b[k];
    return out;
  }

  function Depict(depth, palette) {
    this.D = depth;
    this.palette = palette || {};
  }
  Depict.prototype.c = function (key) {
    return key === undefined || key === null ? null : (this.palette[key] || "#888888");
  };
  Depict.prototype.xy = function (p) { return [num(p[0]), num(this.D - p[1])]; };
  Depict.prototype.paint = function (s, fillDefault) {
    var out = {fill: s.f !== undefined ? this.c(s.f) : (fillDefault === undefined ? "none" : fillDefault)};
    if (s.o !== undefined) out["fill-opacity"] = num(s.o);
    if (s.s !== undefined) { out.stroke = this.c(s.s); out["stroke-width"] = num(s.w * LINE); }
    if (s.d !== undefined) out["stroke-dasharray"] = s.d.map(function (d) { return num(d * LINE); }).join(" ");
    return out;
  };
  Depict.prototype.fill = function (layer, shapes) {
    layer.textContent = "";
    for (var k = 0; k < (shapes || []).length; k++) layer.appendChild(this.shape(shapes[k]));
  };
  Depict.prototype.shape = function (s) {
    var self = this, data = s.a || {}, d, g;
    switch (s.k) {
      case "group":
        g = el("g", merge({id: s.id}, data));
        (s.g || []).forEach(function (c) { g.appendChild(self.shape(c)); });
        return g;
      case "line":
        d = "M" + s.p.map(function (p) { return self.xy(p).join(" "); }).join("L") + (s.z ? " Z" : "");
        return el("path", merge(merge(data, {d: d}), merge(this.paint(s),
          {"stroke-linecap": s.cap, "stroke-linejoin": "round"})));
      case "circle":
        var c = this.xy(s.c);
        return el("circle", merge(merge(data, {cx: c[0], cy: c[1], r: num(s.r + (s.rl || 0) * LINE)}),
                                  this.paint(s)));
      case "dot":
        var o = this.xy(s.c);
        return el("circle", merge(data, {cx: o[0], cy: o[1], r: num(s.rl * LINE), fill: this.c(s.f)}));
      case "base": return this.base(s, data);
      case "glyph": return this.glyph(s, data);
      case "area":
        d = s.rings.map(function (ring) {
          return "M" + ring.map(function (p) { return self.xy(p).join(" "); }).join("L") + "Z";
        }).join(" ");
        return el("path", merge(merge(data, {d: d, "fill-rule": "evenodd"}), this.paint(s)));
      case "text": return this.text(s, data);
    }
    throw new Error("unknown shape kind " + s.k);
  };
  Depict.prototype.base = function (s, data) {
    var g = (s.g || 0) * LINE, a = s.ab[0] + g, b = s.ab[1] + g, d;
    if (s.sh === 2) d = "M" + num(-a) + " " + num(-b) + "H" + num(a) + "V" + num(b) + "H" + num(-a) + "Z";
    else {
      var arc = num(a) + " " + num(b) + " 0 1 1";
      d = "M" + num(a) + " 0A" + arc + " " + num(-a) + " 0A" + arc + " " + num(a) + " 0Z";
    }
    var c = this.xy(s.c);
    var t = "translate(" + c[0] + " " + c[1] + ")" + (s.t ? " rotate(" + num(-s.t) + ")" : "");
    return el("path", merge(merge(data, {d: d, transform: t}), this.paint(s)));
  };
  Depict.prototype.glyph = function (s, data) {
    var c = this.xy(s.c), cx = parseFloat(c[0]), cy = parseFloat(c[1]), r = s.rl * LINE, pts, k;
    if (s.g === "cross") {
      var d = "M" + num(cx - r) + " " + num(cy - r) + "L" + num(cx + r) + " " + num(cy + r) +
              "M" + num(cx - r) + " " + num(cy + r) + "L" + num(cx + r) + " " + num(cy - r);
      return el("path", merge(merge(data, {d: d}), this.paint(s)));
    }
    if (s.g === "arrowhead") {
      var ang = -(s.t || 0) * Math.PI / 180;
      pts = [[cx, cy]];
      [0.45, -0.45].forEach(function (w) { pts.push([cx - r * Math.cos(ang - w), cy - r * Math.sin(ang - w)]); });
    } else {
      pts = [];
      for (k = 0; k < 10; k++) {
        var rr = k % 2 === 0 ? r : r * 0.45, th = -Math.PI / 2 + k * Math.PI / 5;
        pts.push([cx + rr * Math.cos(th), cy + rr * Math.sin(th)]);
      }
    }
    var points = pts.map(function (p) { return num(p[0]) + "," + num(p[1]); }).join(" ");
    return el("polygon", merge(merge(data, {points: points}), this.paint(s, null)));
  };
  Depict.prototype.text = function (s, data) {
    var size = SIZES[s.r] || SIZES.small, wh = s.wh, w = wh[0], h = wh[1];
    var c = this.xy(s.c), x = parseFloat(c[0]), y = parseFloat(c[1]);
    var font = {"font-size": num(size), fill: this.c(s.f), "font-weight": s.b ? "bold" : null};
    if (s.badge) {
      var small = SIZES.small, bw = s.bw || textWidth(s.badge, small) + 0.3, bh = small * 1.5;
      var bx = x + w / 2 - bw, tx = x - w / 2 + (w - bw - 0.15) / 2;
      var g = el("g", merge({"class": "badged"}, data));
      g.appendChild(el("text", merge({"class": "label", x: num(tx), y: num(y)}, font), s.t));
      var tag = el("g", {"class": "tag"});
      tag.appendChild(el("rect", {x: num(bx), y: num(y - bh / 2), width: num(bw), height: num(bh),
        fill: "#ffffff", stroke: this.c(s.f), "stroke-width": num(LINE), rx: "0.05"}));
      tag.appendChild(el("text", {x: num(bx + bw / 2), y: num(y), "font-size": num(small),
        fill: this.palette.ink || "#1e1e1e"}, s.badge));
      g.appendChild(tag);
      return g;
    }
    if (s.box) {
      var box = el("g", merge({"class": "tag"}, data));
      box.appendChild(el("rect", {x: num(x - w / 2), y: num(y - h / 2), width: num(w), height: num(h),
        fill: this.c(s.box[0]), stroke: this.c(s.box[1]), "stroke-width": num(LINE), rx: "0.05"}));
      box.appendChild(el("text", merge({x: num(x), y: num(y)}, font), s.t));
      return box;
    }
    return el("text", merge(merge({"class": s.halo === false ? "plain" : "label"}, data),
                            merge({x: num(x), y: num(y)}, font)), s.t);
  };

  window.BattlefieldDepict = Depict;
})();
