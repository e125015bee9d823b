/* battlefield's new-game form (GET /): a bundled scene or a file of the player's (a scene, or
   army lists made a scene by POST /imports), against a friend or the computer; POST /games makes
   the game and the form ends with the links to send: the player's own play page, the friend's
   (or "the computer plays blue"), and the page to watch it. */
(function () {
  "use strict";
  var form = document.getElementById("new-game-form");
  if (!form) return;
  var result = document.getElementById("new-game-result");

  function say(text, bad) {
    result.textContent = text;
    result.className = "links" + (bad ? " bad" : "");
  }
  function json(r) { return r.json().then(function (d) { return {status: r.status, data: d}; }); }
  // An army list is told by its content, as POST /imports tells it: a zip (.rosz), XML (.ros)
  // or New Recruit's JSON ({"roster": ...}); anything else is a scene's YAML.
  function roster(file) {
    return file.slice(0, 4096).arrayBuffer().then(function (buf) {
      var b = new Uint8Array(buf), i = 0;
      if (b[0] === 0x50 && b[1] === 0x4b && b[2] === 3 && b[3] === 4) return true;
      if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) i = 3;
      while (i < b.length && (b[i] === 32 || b[i] === 9 || b[i] === 10 || b[i] === 13)) i++;
      if (b[i] === 0x3c) return true;
      return /^\s*\{\s*"roster"\s*:/.test(new TextDecoder().decode(b.subarray(i)));
    });
  }

  function imported(file, side, into) {
    var body = new FormData();
    body.append("roster", file, file.name);
    body.append("side", side);
    if (into) body.append("into", into);
    if (document.getElementById("reserve").checked) body.append("reserve", "on");
    return fetch("/imports", {method: "POST", body: body}).then(json).then(function (r) {
      if (r.status !== 200) throw new Error(r.data.error || "the army list could not be read");
      return r.data.scene;
    });
  }

  function scene() {
    var source = form.querySelector("input[name=source]:checked").value;
    if (source === "bundled") return Promise.resolve(document.getElementById("scene-name").value);
    var file = document.getElementById("scene-file").files[0];
    if (!file) return Promise.reject(new Error("choose a file: a scene, or an army list"));
    var second = document.getElementById("second-file").files[0];
    return roster(file).then(function (list) {
      if (!list) return file.text();
      return imported(file, "red").then(function (text) {
        return second ? imported(second, "blue", text) : text;
      });
    });
  }

  function link(label, url, side) {
    var li = document.createElement("li");
    li.appendChild(document.createTextNode(label + ": "));
    var a = document.createElement("a");
    a.href = url;
    a.textContent = url;
    if (side) a.setAttribute("data-join", side);
    li.appendChild(a);
    return li;
  }

  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    say("making the game...");
    scene().then(function (text) {
      var body = {scene: text};
      var seed = document.getElementById("seed").value;
      if (seed !== "") body.seed = Number(seed);
      if (form.querySelector("input[name=opponent]:checked").value === "computer")
        body.computer = document.getElementById("computer-side").value;
      return fetch("/games", {method: "POST", headers: {"Content-Type": "application/json",
                                                        Accept: "application/json"},
                              body: JSON.stringify(body)}).then(json);
    }).then(function (r) {
      if (r.status !== 201) { say(r.data.error || "the game could not be made", true); return; }
      var g = r.data, sides = Object.keys(g.join), list = document.createElement("ul");
      result.textContent = "";
      result.className = "links";
      var head = document.createElement("p");
      head.textContent = "Game " + g.game + " (" + g.ruleset + "). Open your link; " +
        (g.computer ? "the computer plays " + g.computer + "." : "send the other to your friend.");
      result.appendChild(head);
      sides.forEach(function (side, k) {
        list.appendChild(link(k === 0 ? "you (" + side + ")" : "your friend (" + side + ")",
                              g.join[side], side));
      });
      list.appendChild(link("anyone may watch", window.location.origin + g.watch));
      result.appendChild(list);
      result.setAttribute("data-game", g.game);
    }).catch(function (e) { say(e.message, true); });
  });
})();
