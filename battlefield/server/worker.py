"""The engine off the event loop: every check, apply, replay and page the server asks of the rules
engine runs on worker threads, so the loop goes on reading and writing every other client while
it works.

- One game's jobs run one at a time, in the order they were asked (a lock per game, held while
  the job waits and runs): the actions of a game are applied in the order they arrived.
- The next job a thread takes is the one whose client address used the least engine time lately
  (limits.Buckets of seconds): a client that sends costly actions waits behind everyone else's,
  and a player's act is not queued behind an attacker's flood.
- One thread more is kept for the light jobs (of addresses that used under LIGHT seconds of
  engine time lately): however many costly jobs the others run, a player's act finds a thread.
- Each job's time is charged to its address; an address past its share is refused more work for
  a while (Engine.wait says how long), as a rate limit by cost.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import threading
import time
from collections.abc import Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from battlefield.server.limits import Buckets

T = TypeVar("T")
LIGHT = 1.0          # seconds of engine time an address used lately, under which it is light


@dataclass(order=True)
class _Job:
    priority: float
    seq: int
    fn: Callable[..., Any] = field(compare=False)
    args: tuple[Any, ...] = field(compare=False)
    future: asyncio.Future[Any] = field(compare=False)
    loop: asyncio.AbstractEventLoop = field(compare=False)
    address: str = field(compare=False)


class Engine:
    """Worker threads taking engine jobs, fairest first."""

    def __init__(self, share: Buckets, threads: int = 1) -> None:
        self.share = share
        self.jobs: list[_Job] = []
        self.ready = threading.Condition()
        self.seq = itertools.count()
        self.locks: dict[str, tuple[asyncio.Lock, int]] = {}   # game -> (lock, its users)
        self.running = True
        self.threads = [threading.Thread(target=self._work, args=(i == threads,),
                                         name=f"battlefield-engine-{i}", daemon=True)
                        for i in range(threads + 1)]
        for t in self.threads:
            t.start()

    def wait(self, address: str) -> float:
        """Seconds before `address` may ask more engine work (0.0: now)."""
        return self.share.wait(address)

    async def run(self, game: str | None, address: str, fn: Callable[..., T], *args: Any) -> T:
        """fn(*args) on a worker thread, after the jobs of `game` asked before it (None: a job
        of no game, e.g. reading a new game's scene)."""
        if game is None:
            return await self._submit(address, fn, args)
        async with self.game_lock(game):
            return await self._submit(address, fn, args)

    @asynccontextmanager
    async def game_lock(self, game: str) -> Any:
        """Hold `game`'s turn: its jobs asked meanwhile wait (the server broadcasts an act's
        event while holding it, so every client hears a game's events in order)."""
        lock, users = self.locks.get(game, (None, 0))
        if lock is None:
            lock = asyncio.Lock()
        self.locks[game] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self.locks[game]
            if users <= 1:
                del self.locks[game]
            else:
                self.locks[game] = (lock, users - 1)

    def busy(self, game: str) -> bool:
        """Some job of `game` waits or runs."""
        return game in self.locks

    async def _submit(self, address: str, fn: Callable[..., T], args: tuple[Any, ...]) -> T:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        job = _Job(self.share.used(address), next(self.seq), fn, args, future, loop, address)
        with self.ready:
            heapq.heappush(self.jobs, job)
            self.ready.notify_all()          # the light jobs' thread may be the one to take it
        return await future

    def _work(self, light_only: bool) -> None:
        while True:
            with self.ready:
                while self.running and not (self.jobs and (
                        not light_only or self.jobs[0].priority < LIGHT)):
                    self.ready.wait()
                if not self.running:
                    return
                job = heapq.heappop(self.jobs)
            # The engine time charged to an address is this thread's CPU time, not the wall's:
            # waiting for the GIL or for a busy machine's cores is no work the client asked.
            start = time.thread_time()
            try:
                result, error = job.fn(*job.args), None
            except BaseException as exc:       # handed to the awaiting coroutine
                result, error = None, exc
            spent = time.thread_time() - start
            try:
                job.loop.call_soon_threadsafe(self._done, job, result, error, spent)
            except RuntimeError:               # the loop is closed: the server has stopped
                return

    def _done(self, job: _Job, result: Any, error: BaseException | None, spent: float) -> None:
        self.share.charge(job.address, spent)
        if job.future.done():                  # its client went away meanwhile
            return
        if error is not None:
            job.future.set_exception(error)
        else:
            job.future.set_result(result)

    def close(self) -> None:
        with self.ready:
            self.running = False
            self.ready.notify_all()
