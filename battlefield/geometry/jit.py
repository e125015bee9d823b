"""Kernels that work before numba is even imported: `@njit` from here marks a function as a
numba kernel, but the module that defines it does not import numba. By default the first call
builds the compiled copies and uses them from then on, as numba's own `@njit` would. A program
that must not wait for numba (the play window) calls `defer()` first: then a call runs the
plain Python function (the same code, the same numbers, slower) until `compile_kernels()` has
built, warmed and published the compiled copies.

Why: numba costs about a second to import and its kernels tens of seconds to compile on a
first launch; the play window draws its first board from these kernels' plain versions (a few
distances while loading the scene) and compiles behind it (battlefield.view.launch).

The compiled copy of each function is built from the same code with its own globals, where
the module's other kernels are their compiled copies (numba resolves a kernel's calls through
its globals), so the module's own namespace keeps the `Kernel` objects and a call made from
another thread while compiling still runs the plain version: never a half-compiled one."""

from __future__ import annotations

import threading
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

_kernels: list[Kernel] = []
_lock = threading.Lock()
_trying = threading.local()          # this thread calls the unpublished compiled copies
_deferring = False                   # calls run plain Python until compile_kernels publishes


class Kernel:
    """A function numba compiles when asked (compile_kernels), plain Python until then."""

    def __init__(self, py_func: Callable, options: dict[str, Any]) -> None:
        self.py_func = py_func
        self.options = options
        self.dispatcher: Any = None        # numba's compiled copy, once built
        self.published = False             # every thread calls the compiled copy
        self.__name__ = py_func.__name__
        self.__qualname__ = py_func.__qualname__
        self.__module__ = py_func.__module__
        self.__doc__ = py_func.__doc__
        self.__wrapped__ = py_func

    def __call__(self, *args: Any) -> Any:
        d = self.dispatcher
        if d is not None and (self.published or getattr(_trying, "on", False)):
            return d(*args)
        if _deferring:
            return self.py_func(*args)
        build()                        # as numba's @njit: compiled on the first call
        publish()
        return self.dispatcher(*args)

    def __repr__(self) -> str:
        how = "compiled" if self.published else "plain Python until compiled"
        return f"<kernel {self.__module__}.{self.__qualname__}: {how}>"


def njit(*args: Any, **options: Any) -> Any:
    """`@njit` or `@njit(cache=True, ...)`, as numba's, but deferred (see the module)."""
    if args and callable(args[0]) and not options:
        return _register(Kernel(args[0], {}))
    return lambda f: _register(Kernel(f, options))


def _register(k: Kernel) -> Kernel:
    with _lock:
        _kernels.append(k)
    return k


def defer() -> None:
    """From now on an unpublished kernel runs as plain Python (never waits for numba) until
    compile_kernels() publishes the compiled copies."""
    global _deferring
    _deferring = True


def compiled() -> bool:
    """Whether every kernel defined so far calls its compiled copy."""
    return bool(_kernels) and all(k.published for k in _kernels)


def build() -> None:
    """Import numba and build (not yet compile: numba compiles on the first call of each type)
    the compiled copy of every kernel defined so far, unpublished."""
    # here, not at the top: numba is imported only when the kernels are built (the window's
    # first frame draws before it)
    import numba

    with _lock:
        todo = [k for k in _kernels if k.dispatcher is None]
        _build(numba, todo)


def _build(numba: Any, todo: list[Kernel]) -> None:
    spaces: dict[int, dict[str, Any]] = {}
    for k in todo:
        g = k.py_func.__globals__
        if id(g) not in spaces:        # one compiled namespace per module
            spaces[id(g)] = {name: v for name, v in g.items() if not isinstance(v, Kernel)}
        ns = spaces[id(g)]
        f = k.py_func
        copy = types.FunctionType(f.__code__, ns, f.__name__, f.__defaults__, f.__closure__)
        copy.__qualname__ = f.__qualname__
        copy.__doc__ = f.__doc__
        k.dispatcher = numba.njit(**k.options)(copy)
    for k in todo:                     # the module's kernels call each other's copies
        ns = spaces[id(k.py_func.__globals__)]
        for name, v in k.py_func.__globals__.items():
            if isinstance(v, Kernel) and v.dispatcher is not None:
                ns[name] = v.dispatcher


@contextmanager
def trying() -> Iterator[None]:
    """Within it, this thread's calls go to the compiled copies (compiling them as they are
    first called) while the other threads keep calling the plain versions."""
    before = getattr(_trying, "on", False)
    _trying.on = True
    try:
        yield
    finally:
        _trying.on = before


def publish() -> None:
    """From now on every call goes to the compiled copies (call once they are warm)."""
    for k in list(_kernels):
        if k.dispatcher is not None:
            k.published = True


def compile_kernels(warm: Callable[[], None] | None = None) -> None:
    """Build the compiled copies, run `warm` (calls that compile them for the argument types
    the program uses, or load them from numba's cache) on them in this thread, then publish."""
    build()
    if warm is not None:
        with trying():
            warm()
    publish()


__all__ = ["Kernel", "njit", "compile_kernels", "compiled", "defer", "build", "publish", "trying"]
