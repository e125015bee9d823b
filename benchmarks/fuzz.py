"""Seeded mutation fuzzing of everything battlefield reads from outside, through the command
line as a user calls it (battlefield.cli.main.main, in-process): `python benchmarks/fuzz.py
[--cases N] [--seed S] [--only FAMILY ...] [--json]`.

Families (N cases each, 2,000 by default):
- scenes: bundled scenes with a value, key or list item mutated (hostile numbers, wrong types,
  NUL and zero-width text ...) -> `check --json` and `validate`; a file validate passes that
  check refuses is a failure (they must agree), and so is --json output that is not strict
  JSON (in every family that asks for --json).
- scenes-then-play: mutated scenes that check accepts -> `render -o` (every 5th) and
  `try --json` with an example action of the ruleset's vocabulary.
- positions: the `state:` of positions written by `try --out` mutated -> `try`.
- actions: vocabulary examples with fields mutated, or their JSON text mangled -> `try --json`.
- hostile-files: huge, binary, non-UTF-8, deeply nested, devices, folders, traversal `map:`.
- logs: saved battles (`simulate --log`) with lines mutated -> `replay`; also counts refusals
  whose message names no line of the file.
- server-frames: WebSocket frames (mutated act frames of every action type, mangled text, any
  JSON, resumes, deep nesting, frames past 64 KiB) to the game server's message handler, one
  live game per ruleset that the computer players move on now and then. A failure is also an
  unanswered frame, an answer that is not event / refused / error or not strict JSON, an
  `error` for a well-formed act (its action is the engine's to refuse), or a refused / error
  that changed the game.

A failure is a Python exception escaping main (a traceback), an exit status other than 0 or
2 (replay's 1 - "the log replays differently" - is counted as an answer), an error of more than
one line, or --json output that is not strict JSON. Prints a table (and --json, the figures).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import io
import json
import os
import random
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import yaml  # noqa: E402

from battlefield.cli.main import main  # noqa: E402
from battlefield.paths import find_map  # noqa: E402
from battlefield.rulesets import load_ruleset  # noqa: E402

RULESETS = ("aos4", "blocks", "openwg", "skirmish", "warband")
SCENES = ("demo", "demo-blocks", "demo-openwg", "demo-skirmish", "demo-warband")
ENDS = {"aos4": "end-phase", "blocks": "end-phase", "openwg": "stop", "skirmish": "end-turn",
        "warband": "pass"}
HOSTILE: list[Any] = [
    float("nan"), float("inf"), float("-inf"), 10 ** 60, -1, 0, 1e308, -1e308, 0.5, "", " ",
    "\x00", "\ufeff", "a\u200bb", "x" * 5000, None, True, [], {}, [1, 2, 3], {"a": 1},
    [[1, 2], [3, 4]], "red", "blue", "../../etc/passwd", [[[[[[[[[[1]]]]]]]]]], 3.75, 1000000,
]
PROGRESS = "--progress" in sys.argv
FAMILIES = ("scenes", "scenes-then-play", "positions", "actions", "hostile-files", "logs",
            "server-frames")


class Run:
    """One command's outcome."""

    def __init__(self, code: int, out: str, err: str, crash: str | None) -> None:
        self.code, self.out, self.err, self.crash = code, out, err, crash

    @property
    def failed(self) -> str | None:
        if self.crash:
            return self.crash
        if self.code not in (0, 1, 2):
            return f"exit status {self.code}"
        if self.code == 2 and len(self.err.strip().splitlines()) != 1:
            return f"an error of {len(self.err.strip().splitlines())} lines"
        return None


def call(argv: list[str]) -> Run:
    out, err = io.StringIO(), io.StringIO()
    crash = None
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = int(main(argv) or 0)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 2
        except BaseException as exc:          # noqa: BLE001 - a traceback is the finding
            tb = traceback.extract_tb(exc.__traceback__)[-1]
            crash = f"{type(exc).__name__} at {Path(tb.filename).name}:{tb.lineno}"
            code = -1
    return Run(code, out.getvalue(), err.getvalue(), crash)


def strict_json(text: str) -> bool:
    def refuse(c: str) -> Any:
        raise ValueError(c)

    try:
        json.loads(text, parse_constant=refuse)
    except ValueError:
        return False
    return True


# --- mutations ----------------------------------------------------------------------------------
def paths_of(value: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += paths_of(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:6]):
            out += paths_of(v, (*prefix, i))
    return out


def mutate(rng: random.Random, data: Any, times: int = 1) -> Any:
    data = copy.deepcopy(data)
    for _ in range(times):
        paths = [p for p in paths_of(data) if p]
        if not paths:
            return data
        path = rng.choice(paths)
        parent = data
        for k in path[:-1]:
            parent = parent[k]
        key = path[-1]
        roll = rng.random()
        if roll < 0.7:
            parent[key] = copy.deepcopy(rng.choice(HOSTILE))
        elif roll < 0.8 and isinstance(parent, dict):
            del parent[key]
        elif roll < 0.9 and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
        elif isinstance(parent[key], (int, float)) and not isinstance(parent[key], bool):
            parent[key] = parent[key] * rng.choice([-1, 0, 2, 1000, 1e9])
        else:
            parent[key] = copy.deepcopy(rng.choice(HOSTILE))
    return data


def dump(data: Any) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=rng_unicode.pop()
                          if rng_unicode else False, width=100)


rng_unicode: list[bool] = []


def scene_data(name: str) -> Any:
    path = find_map(name)
    assert path is not None, name
    return yaml.safe_load(path.read_text(encoding="utf-8"))


# --- the families -------------------------------------------------------------------------------
class Tally:
    def __init__(self, name: str, what: str) -> None:
        self.name, self.what = name, what
        self.runs = self.failed = 0
        self.notes: dict[str, int] = {}
        self.examples: list[str] = []

    def add(self, run: Run, case: str) -> None:
        self.runs += 1
        if PROGRESS and self.runs % 100 == 0:
            print(f"    {self.name}: {self.runs} runs, {self.failed} failed", file=sys.stderr,
                  flush=True)
        why = run.failed
        if why:
            self.failed += 1
            if len(self.examples) < 5:
                self.examples.append(f"{why} ({case}): {run.err.strip()[:160]}")
            if PROGRESS:                      # at once: a run that dies later still shows it
                print(f"    {self.name} FAILED: {why} ({case}): {run.err.strip()[:300]}",
                      file=sys.stderr, flush=True)

    def note(self, key: str) -> None:
        self.notes[key] = self.notes.get(key, 0) + 1


def fuzz_scenes(rng: random.Random, n: int, tmp: Path, play: bool) -> Tally:
    t = (Tally("scenes-then-play", "scenes check accepts, then render / try") if play else
         Tally("scenes", "scene files (check --json, validate)"))
    bases = {s: scene_data(s) for s in SCENES}
    done = 0
    attempts = 0
    while done < n and attempts < n * 20:
        attempts += 1
        name = rng.choice(SCENES)
        data = mutate(rng, bases[name], rng.choice([1, 1, 2, 3]))
        file = tmp / f"s{attempts % 7}.yaml"
        try:
            file.write_text(dump(data), encoding="utf-8")
        except (yaml.YAMLError, RecursionError, ValueError):
            continue
        if not play:
            checked = call(["check", str(file), "--json"])
            t.add(checked, f"check {name}")
            if checked.code == 0 and not strict_json(checked.out):
                t.failed += 1
                t.note("--json not strict")
            valid = call(["validate", str(file)])
            t.add(valid, f"validate {name}")
            if valid.code == 0 and checked.code != 0:   # validate must say what check says
                t.failed += 1
                t.note("validate ok, check refuses")
                if len(t.examples) < 5:
                    t.examples.append(f"validate ok, check refuses ({name}): "
                                      f"{checked.err.strip()[:160]}")
            done += 1
            continue
        checked = call(["check", str(file), "--json"])
        if checked.code != 0:
            continue
        if done % 5 == 0:                     # a picture is the slow part: every 5th scene
            t.add(call(["render", str(file), "-o", str(tmp / "r.png")]), f"render {name}")
        rs = data.get("ruleset") if isinstance(data, dict) else None
        actions = _examples(rs if rs in RULESETS else "aos4")
        tried = call(["try", str(file), "--action", json.dumps(rng.choice(actions)), "--json"])
        t.add(tried, f"try {name}")
        if tried.code == 0 and not strict_json(tried.out):
            t.failed += 1
            t.note("--json not strict")
        done += 1
    return t


def _examples(ruleset: str) -> list[dict]:
    return [dict(a.example) for a in load_ruleset(ruleset).actions]


def positions(tmp: Path) -> list[tuple[str, Any]]:
    """A position of each demo battle part way (try --out), as data."""
    out = []
    for ruleset, scene in zip(RULESETS, SCENES, strict=True):
        file = tmp / f"pos-{ruleset}.yaml"
        run = call(["simulate", "--ruleset", ruleset, "--seed", "2", "--log",
                    str(tmp / f"{ruleset}.jsonl")])
        assert run.code == 0, run.err
        done = call(["try", scene, "--action", json.dumps({"type": ENDS[ruleset]}),
                     "--out", str(file)])
        assert done.code == 0 and done.failed is None, done.err
        out.append((ruleset, yaml.safe_load(file.read_text(encoding="utf-8"))))
    return out


def fuzz_positions(rng: random.Random, n: int, tmp: Path, saved: list) -> Tally:
    t = Tally("positions", "the state: of positions written by try --out")
    for k in range(n):
        ruleset, doc = rng.choice(saved)
        doc = copy.deepcopy(doc)
        doc["state"] = mutate(rng, doc["state"], rng.choice([1, 1, 2]))
        file = tmp / "p.yaml"
        try:
            file.write_text(dump(doc), encoding="utf-8")
        except (yaml.YAMLError, ValueError):
            continue
        action = {"type": ENDS[ruleset]} if k % 2 else rng.choice(_examples(ruleset))
        run = call(["try", str(file), "--action", json.dumps(action), "--json"])
        t.add(run, f"try {ruleset}")
        if run.code == 0 and not strict_json(run.out):
            t.failed += 1
            t.note("--json not strict")
    return t


def mangle(rng: random.Random, text: str) -> str:
    roll = rng.random()
    if roll < 0.3:
        i = rng.randrange(len(text))
        return text[:i] + text[i + 1:]
    if roll < 0.5:
        i = rng.randrange(len(text))
        return text[:i] + rng.choice(["[", "{", "NaN", "1e999", "9" * 5000, '"', ",", "\\u0000"]) \
            + text[i:]
    if roll < 0.6:
        return "[" * rng.choice([10, 100, 5000]) + "]" * rng.choice([0, 10])
    return text.replace("[", "[[", 1)


def fuzz_actions(rng: random.Random, n: int) -> Tally:
    t = Tally("actions", "try --action JSON")
    scenes = dict(zip(RULESETS, SCENES, strict=True))
    for _ in range(n):
        ruleset = rng.choice(RULESETS)
        action = rng.choice(_examples(ruleset))
        if rng.random() < 0.7:
            action = mutate(rng, action, rng.choice([1, 2]))
            text = json.dumps(action, allow_nan=True)
        else:
            text = mangle(rng, json.dumps(action))
        run = call(["try", scenes[ruleset], "--action", text, "--json"])
        t.add(run, f"try {ruleset} {text[:60]}")
        if run.code == 0 and not strict_json(run.out):
            t.failed += 1
            t.note("--json not strict")
    return t


def hostile_files(tmp: Path) -> list[tuple[str, Callable[[Path], Path]]]:
    """Ways to make a file that is no scene (each writes it and returns its path)."""
    def text(body: str | bytes, name: str = "h.yaml") -> Callable[[Path], Path]:
        def make(folder: Path) -> Path:
            p = folder / name
            if isinstance(body, bytes):
                p.write_bytes(body)
            else:
                p.write_text(body, encoding="utf-8")
            return p
        return make

    def fixed(path: str) -> Callable[[Path], Path]:
        return lambda folder: Path(path)

    def fifo(folder: Path) -> Path:
        p = folder / "fifo.yaml"
        if not p.exists():
            os.mkfifo(p)
        return p

    def big(folder: Path) -> Path:
        p = folder / "big.yaml"
        if not p.exists():
            with open(p, "wb") as f:
                f.truncate(50 * 1024 * 1024)
        return p

    secret = "ruleset: aos4\nmap: {}\nunits: []\n"
    return [
        ("/dev/zero", fixed("/dev/zero")), ("/dev/null", fixed("/dev/null")),
        ("a folder", lambda folder: folder), ("a FIFO", fifo), ("50 MB", big),
        ("binary", text(bytes(range(256)) * 64)), ("latin-1", text("name: caf\xe9".encode(
            "latin-1"))), ("deep", text("[" * 5000)), ("deep map", text("a:\n" + "".join(
            "  " * i + "b:\n" for i in range(1, 200)))),
        ("aliases", text("a: &a [x, x, x, x, x, x, x, x]\n" + "".join(
            f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
            for p, c in zip("abcdefgh", "bcdefghi", strict=True)))),
        ("traversal", text(secret.format("../../../../etc/passwd"))),
        ("absolute map", text(secret.format("/etc/passwd"))),
        ("map is the scene", text(secret.format("h.yaml"))),
        ("map is /dev/zero", text(secret.format("/dev/zero"))),
        ("nul in name", text("ruleset: aos4\nboard: {width: 60, depth: 44}\nunits: [{id: "
                             "\"a\\0\", side: red, models: [{base: 32, at: [5, 5]}]}]\n")),
        ("bom id", text("ruleset: aos4\nboard: {width: 60, depth: 44}\nunits: [{id: "
                        "\"\\ufeff\", side: red, models: [{base: 32, at: [5, 5]}]}]\n")),
        ("python tag", text("!!python/object:os.system {}\n")),
        ("empty", text("")), ("huge number", text("board: {width: " + "9" * 5000 + "}\n")),
    ]


def fuzz_hostile(rng: random.Random, n: int, tmp: Path) -> Tally:
    t = Tally("hostile-files", "hostile files (huge, devices, traversal ...)")
    folder = tmp / "hostile"
    folder.mkdir(exist_ok=True)
    makers = hostile_files(tmp)
    commands = [["check"], ["validate"], ["render", "-o", str(tmp / "h.png")], ["points"],
                ["try", "--action", '{"type": "end-phase"}']]
    for k in range(n):
        what, make = makers[k % len(makers)] if k < len(makers) else rng.choice(makers)
        path = make(folder)
        cmd = rng.choice(commands)
        started = time.process_time()          # CPU: this machine's load is not the code's
        run = call([cmd[0], str(path), *cmd[1:]])
        t.add(run, f"{cmd[0]} {what}")
        if time.process_time() - started > 5:
            t.failed += 1
            t.note(f"slow: {what}")
        if "root:" in run.err or "daemon:" in run.err:
            t.failed += 1
            t.note("quotes a file it could not read as a scene")
    return t


def fuzz_logs(rng: random.Random, n: int, tmp: Path) -> Tally:
    t = Tally("logs", "tampered logs for replay")
    # The first 40 actions of each saved battle: a tampered line is met as soon, and each
    # replay is short.
    logs = {r: (tmp / f"{r}.jsonl").read_text(encoding="utf-8").splitlines()[:41]
            for r in RULESETS}
    for _ in range(n):
        ruleset = rng.choice(RULESETS)
        lines = list(logs[ruleset])
        i = rng.randrange(1, len(lines)) if len(lines) > 1 else 0
        roll = rng.random()
        if roll < 0.5:
            item = json.loads(lines[i])
            if "action" in item:
                item["action"] = mutate(rng, item["action"])
            else:
                item = mutate(rng, item)
            lines[i] = json.dumps(item, allow_nan=True)
        elif roll < 0.7:
            lines[i] = mangle(rng, lines[i])
        elif roll < 0.8:
            del lines[i]
        elif roll < 0.9:
            lines.insert(i, lines[rng.randrange(len(lines))])
        else:
            head = json.loads(lines[0])
            lines[0] = json.dumps(mutate(rng, head), allow_nan=True)
        file = tmp / "t.jsonl"
        file.write_text("\n".join(lines) + "\n", encoding="utf-8")
        run = call(["replay", str(file)])
        t.add(run, f"replay {ruleset}")
        if run.code == 2 and f"{file}:" not in run.err:
            t.note("refused naming no line")
    return t


class Listener:
    """A client as the server's handler sees it: a seat, and what it is sent."""

    def __init__(self, seat: str | None) -> None:
        self.seat = seat
        self.ignored = 0
        self.sent: list[str] = []

    def send(self, msg: dict[str, Any] | str) -> None:
        from battlefield.server import messages

        self.sent.append(msg if isinstance(msg, str) else messages.dumps(msg))

    def backlog(self, game: Any, since: int, upto: int) -> None:
        for record in game.records[since:upto]:
            self.send(record.message(self.seat))


def frame_text(rng: random.Random, ruleset: str, ids: list[str]) -> str:
    """One frame a client might send."""
    roll = rng.random()
    if roll < 0.6:
        action: Any = rng.choice(_examples(ruleset))
        if rng.random() < 0.3:
            action = {**action, "unit": rng.choice(ids)}
        if rng.random() < 0.85:
            action = mutate(rng, action, rng.choice([1, 2]))
        cid: Any = rng.choice([rng.randrange(10 ** 6), f"c{rng.randrange(100)}",
                               rng.choice(HOSTILE)])
        text = json.dumps({"type": "act", "id": cid, "action": action}, allow_nan=True)
        return mangle(rng, text) if rng.random() < 0.15 else text
    if roll < 0.75:
        since = rng.choice([0, 1, 5, 10 ** 6, -1, rng.choice(HOSTILE)])
        extra = {"action": rng.choice(HOSTILE)} if rng.random() < 0.3 else {}
        return json.dumps({"type": "resume", "since": since, **extra}, allow_nan=True)
    if roll < 0.9:
        return json.dumps(mutate(rng, {"type": rng.choice(["act", "resume", "hello", "x"]),
                                       "id": 1, "action": {"type": "x"}, "since": 0}),
                          allow_nan=True)
    if roll < 0.95:
        return mangle(rng, '{"type": "act", "id": 1, "action": {"type": "x"}}')
    return rng.choice(["", "null", "[]", "\ud800", "x" * 70_000,
                       json.dumps({"type": "act", "id": 1, "action": {"pad": "y" * 70_000}})])


def fuzz_frames(rng: random.Random, n: int, tmp: Path) -> Tally:
    from battlefield.errors import UsageError
    from battlefield.inputs import loads
    from battlefield.rules import registry
    from battlefield.rules.deploy import battle_scene
    from battlefield.scene.load import load_scene_text
    from battlefield.server.app import Server
    from battlefield.server.games import LiveGame
    from battlefield.server.limits import Limits

    t = Tally("server-frames", "server frames to the message handler")
    # The handler itself, without the rate limits (benchmarks/server.py --attack has those).
    server = Server(tmp / "games.sqlite", Limits(frames_burst=10**9, engine_burst_s=1e9))
    loop = asyncio.new_event_loop()
    games = {}
    for ruleset in RULESETS:
        text, name = battle_scene(ruleset, None)   # as POST /games makes a game
        seats = LiveGame.new_seats(list(load_scene_text(text, name).sides))
        game = LiveGame(ruleset, ruleset, text, name, 7, seats)
        server.store.create(ruleset, ruleset, text, name, 7, seats, 0.0)
        server.games[ruleset] = game
        games[ruleset] = (game, registry.get(ruleset).player(),
                          [u.id for u in game.state.scene.units])
    for k in range(n):
        ruleset = rng.choice(RULESETS)
        game, player, ids = games[ruleset]
        if k % 25 == 0 and not game.over:           # the game moves on: resumes have events
            action = player.choose(game.state)
            side = game.state.sender(action)
            game.act(side, action, json.dumps(f"bot-{k}"))
        seat = rng.choice([*game.state.sides, None])
        frame = frame_text(rng, ruleset, ids)
        client = Listener(seat)
        version, before = game.version, game.state.fingerprint()
        crash = None
        game.clients.add(client)
        try:
            loop.run_until_complete(server.frame(game, client, frame))
        except BaseException as exc:               # noqa: BLE001 - a traceback is the finding
            tb = traceback.extract_tb(exc.__traceback__)[-1]
            crash = f"{type(exc).__name__} at {Path(tb.filename).name}:{tb.lineno}"
        finally:
            game.clients.discard(client)
        why = crash or _frame_answer_problem(frame, client.sent, game, version, before,
                                             loads, UsageError)
        t.add(Run(-1 if why else 0, "", "", why), f"{ruleset} {frame[:60]!r}")
        first = json.loads(client.sent[0])["type"] if client.sent and not crash else "nothing"
        t.note(first)
    server.engine.close()
    server.store.close()
    loop.close()
    return t


def _frame_answer_problem(frame: str, sent: list[str], game: Any, version: int, before: Any,
                          loads: Callable[..., Any], usage: type) -> str | None:
    answers = []
    for text in sent:
        if not strict_json(text):
            return "an answer that is not strict JSON"
        answers.append(json.loads(text))
    try:
        msg = loads(frame, "frame") if len(frame.encode("utf-8", "surrogatepass")) <= 65536 \
            else None
    except usage:
        msg = None
    since = msg.get("since") if isinstance(msg, dict) and msg.get("type") == "resume" else None
    if isinstance(since, int) and not isinstance(since, bool) and since >= 0:
        kinds = [a.get("type") for a in answers]       # the events missed, none when none were
        missed = ["event"] * (version - since) + (["over"] if game.over else []) \
            if since <= version else ["error"]             # a version the game has not reached
        if kinds != missed or game.version != version or game.state.fingerprint() != before:
            return f"resume since {since} at version {version} answered {kinds[:3]}"
        return None
    if not answers:
        return "no answer"
    kind = answers[0].get("type")
    well_formed_act = (isinstance(msg, dict) and msg.get("type") == "act" and "action" in msg
                       and ((isinstance(msg.get("id"), int)
                             and not isinstance(msg.get("id"), bool))
                            or (isinstance(msg.get("id"), str) and 0 < len(msg["id"]) <= 128)))
    if kind not in ("event", "refused", "error"):
        return f"answered {kind!r}"
    if kind == "error" and well_formed_act:
        return "a well-formed act answered with an error"
    if kind != "event":
        if len(answers) != 1 or game.version != version or game.state.fingerprint() != before:
            return f"a {kind} changed the game"
        if kind == "error" and "\n" in answers[0].get("message", "\n"):
            return "an error of more than one line"
    return None


def run_all(cases: int, seed: int, only: list[str] | None) -> list[Tally]:
    out = []
    with tempfile.TemporaryDirectory(prefix="battlefield-fuzz-") as folder:
        tmp = Path(folder)
        # The positions and logs the two families mutate (five battles played and saved).
        saved = positions(tmp) if not only or {"positions", "logs"} & set(only) else []
        for k, family in enumerate(FAMILIES):
            if only and family not in only:
                continue
            rng = random.Random(seed * 1000 + k)
            rng_unicode[:] = [rng.random() < 0.5 for _ in range(cases * 8)]
            started = time.perf_counter()
            if family == "scenes":
                t = fuzz_scenes(rng, cases, tmp, play=False)
            elif family == "scenes-then-play":
                t = fuzz_scenes(rng, cases, tmp, play=True)
            elif family == "positions":
                t = fuzz_positions(rng, cases, tmp, saved)
            elif family == "actions":
                t = fuzz_actions(rng, cases)
            elif family == "hostile-files":
                t = fuzz_hostile(rng, cases, tmp)
            elif family == "logs":
                t = fuzz_logs(rng, cases, tmp)
            else:
                t = fuzz_frames(rng, cases, tmp)
            t.notes["seconds"] = round(time.perf_counter() - started)
            out.append(t)
            print(f"  {family}: {t.runs} runs, {t.failed} failed "
                  f"({t.notes['seconds']} s)", file=sys.stderr)
    return out


def table(tallies: list[Tally]) -> str:
    rows = ["| family | runs | failed | notes |", "| --- | --- | --- | --- |"]
    for t in tallies:
        notes = ", ".join(f"{k} {v}" for k, v in t.notes.items() if k != "seconds")
        rows.append(f"| {t.what} | {t.runs:,} | {t.failed} | {notes} |")
    return "\n".join(rows)


def main_fuzz(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=2000, help="cases per family (default 2000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", nargs="*", choices=FAMILIES, help="only these families")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--progress", action="store_true", help="a line per 100 runs on stderr")
    args = ap.parse_args(argv)
    tallies = run_all(args.cases, args.seed, args.only)
    if args.json:
        print(json.dumps({t.name: {"runs": t.runs, "failed": t.failed, **t.notes,
                                   "examples": t.examples} for t in tallies}, indent=2))
    else:
        print(table(tallies))
        for t in tallies:
            for e in t.examples:
                print(f"  {t.name}: {e}")
    return 1 if any(t.failed for t in tallies) else 0


if __name__ == "__main__":
    sys.exit(main_fuzz())
