"""The core of handfoot is pure: stdlib only, no I/O, no global randomness.

"Core" means the package ``handfoot`` itself (its ``__init__``) and every
module file directly in ``src/handfoot/``. Sub-packages (``cli``, ``bots``,
``sim``, ``tui``, ...) are front ends and may do what they like; the core
must never import them.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import pkgutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import handfoot

# Sub-packages that are front ends or tooling, never core.
NON_CORE_SUBPACKAGES = frozenset(
    {"cli", "bots", "sim", "tui", "scorekeeper", "print", "server", "env", "openspiel",
     "learn"}
)

# Module-level functions of `random` that use the hidden global generator.
# `random.Random(seed)` (and `random.SystemRandom`) are the allowed way.
GLOBAL_RANDOM_FUNCS = frozenset(
    {
        "random", "shuffle", "randint", "choice", "seed",
        "choices", "sample", "randrange", "getrandbits", "randbytes",
        "uniform", "triangular", "betavariate", "binomialvariate",
        "expovariate", "gammavariate", "gauss", "lognormvariate",
        "normalvariate", "vonmisesvariate", "paretovariate",
        "weibullvariate", "getstate", "setstate",
    }
)  # fmt: skip
ALLOWED_FROM_RANDOM = frozenset({"Random", "SystemRandom"})

# Builtins and well-known aliases that do I/O.
FORBIDDEN_CALL_NAMES = frozenset({"print", "open"})
FORBIDDEN_ATTR_CALLS = frozenset(
    {("builtins", "print"), ("builtins", "open"), ("io", "open"), ("os", "open")}
)

PACKAGE_DIR = Path(handfoot.__path__[0])


@dataclass(frozen=True)
class CoreModule:
    name: str  # dotted import name
    path: Path


def _subpackages() -> set[str]:
    found = {info.name for info in pkgutil.iter_modules(handfoot.__path__) if info.ispkg}
    return found | NON_CORE_SUBPACKAGES


def core_modules() -> list[CoreModule]:
    mods = [CoreModule("handfoot", PACKAGE_DIR / "__init__.py")]
    for info in sorted(pkgutil.iter_modules(handfoot.__path__), key=lambda i: i.name):
        if info.ispkg or info.name == "__main__" or info.name in NON_CORE_SUBPACKAGES:
            continue
        mods.append(CoreModule(f"handfoot.{info.name}", PACKAGE_DIR / f"{info.name}.py"))
    return mods


def _parse(mod: CoreModule) -> ast.Module:
    return ast.parse(mod.path.read_text(encoding="utf-8"), filename=str(mod.path))


def _is_stdlib(top: str) -> bool:
    return top in sys.stdlib_module_names or top == "__future__"


# --------------------------------------------------------------------------
# 1. Importing the core loads nothing but the stdlib and handfoot.
# --------------------------------------------------------------------------

_PROBE = r"""
import importlib, json, sys
before = set(sys.modules)
for name in json.loads(sys.argv[1]):
    importlib.import_module(name)
allowed = set(sys.stdlib_module_names) | {"handfoot", "__future__", "__main__"}
bad = sorted(
    m for m in set(sys.modules) - before
    if m.split(".")[0] not in allowed
)
print(json.dumps(bad))
"""


def test_importing_core_loads_only_stdlib() -> None:
    spec = importlib.util.find_spec("handfoot")
    assert spec is not None and spec.submodule_search_locations
    search_root = str(Path(next(iter(spec.submodule_search_locations))).parent)
    names = [m.name for m in core_modules()]
    # -I: no PYTHONPATH, user site or cwd; the package is found through the
    # path we put first. Modules loaded at start-up (site, .pth hooks) are
    # excluded by the probe's before/after diff.
    code = f"import sys; sys.path.insert(0, {search_root!r})\n" + _PROBE
    result = subprocess.run(
        [sys.executable, "-I", "-c", code, json.dumps(names)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, f"importing the core failed:\n{result.stderr}"
    bad = json.loads(result.stdout.strip().splitlines()[-1])
    assert bad == [], f"core imports pulled in non-stdlib modules: {bad}"


# --------------------------------------------------------------------------
# 2. Every import statement in the core is stdlib or handfoot core.
# --------------------------------------------------------------------------


def _check_handfoot_target(parts: list[str], subpackages: set[str]) -> str | None:
    """parts is a dotted name starting with 'handfoot'; return an error or None."""
    if len(parts) >= 2 and parts[1] in subpackages:
        return f"imports non-core sub-package handfoot.{parts[1]}"
    return None


def _import_errors(mod: CoreModule, subpackages: set[str]) -> list[str]:
    errors: list[str] = []
    tree = _parse(mod)
    is_init = mod.path.name == "__init__.py"
    # The package a level-1 relative import refers to.
    package = mod.name if is_init else mod.name.rpartition(".")[0]

    def where(node: ast.AST) -> str:
        return f"{mod.path.name}:{getattr(node, 'lineno', '?')}"

    def check_dotted(dotted: str, node: ast.AST) -> None:
        parts = dotted.split(".")
        if parts[0] == "handfoot":
            err = _check_handfoot_target(parts, subpackages)
            if err:
                errors.append(f"{where(node)}: {err}")
        elif not _is_stdlib(parts[0]):
            errors.append(f"{where(node)}: imports non-stdlib module {dotted!r}")

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                check_dotted(alias.name, node)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                if node.level - 1 >= len(base):
                    errors.append(f"{where(node)}: relative import escapes the package")
                    continue
                base = base[: len(base) - (node.level - 1)]
                target = base + (node.module.split(".") if node.module else [])
            else:
                assert node.module is not None
                target = node.module.split(".")
            check_dotted(".".join(target), node)
            # `from handfoot import cli` / `from . import bots`
            if target == ["handfoot"]:
                for alias in node.names:
                    if alias.name in subpackages:
                        errors.append(
                            f"{where(node)}: imports non-core sub-package handfoot.{alias.name}"
                        )
        elif isinstance(node, ast.Call):
            # importlib.import_module("x") / __import__("x") with a literal name
            func = node.func
            is_dynamic = (isinstance(func, ast.Name) and func.id == "__import__") or (
                isinstance(func, ast.Attribute) and func.attr == "import_module"
            )
            if (
                is_dynamic
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
                and not node.args[0].value.startswith(".")
            ):
                check_dotted(node.args[0].value, node)
    return errors


def test_core_imports_are_stdlib_or_core() -> None:
    subpackages = _subpackages()
    errors: list[str] = []
    for mod in core_modules():
        errors.extend(_import_errors(mod, subpackages))
    assert errors == [], "impure imports in core:\n" + "\n".join(errors)


# --------------------------------------------------------------------------
# 3. No print/open, and no use of random's hidden global generator.
# --------------------------------------------------------------------------


def _side_effect_errors(mod: CoreModule) -> list[str]:
    errors: list[str] = []
    tree = _parse(mod)
    random_aliases: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "random":
                    random_aliases.add(alias.asname or "random")
        elif isinstance(node, ast.ImportFrom) and node.module == "random" and not node.level:
            for alias in node.names:
                if alias.name not in ALLOWED_FROM_RANDOM:
                    errors.append(
                        f"{mod.path.name}:{node.lineno}: `from random import {alias.name}`"
                        " (use random.Random(seed))"
                    )

    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        loc = f"{mod.path.name}:{node.lineno}"
        if isinstance(func, ast.Name) and func.id in FORBIDDEN_CALL_NAMES:
            errors.append(f"{loc}: calls {func.id}()")
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            owner, attr = func.value.id, func.attr
            if (owner, attr) in FORBIDDEN_ATTR_CALLS:
                errors.append(f"{loc}: calls {owner}.{attr}()")
            elif owner in random_aliases and attr in GLOBAL_RANDOM_FUNCS:
                errors.append(f"{loc}: calls global {owner}.{attr}() (use random.Random(seed))")
    return errors


def test_core_has_no_io_or_global_random() -> None:
    errors: list[str] = []
    for mod in core_modules():
        errors.extend(_side_effect_errors(mod))
    assert errors == [], "side effects in core:\n" + "\n".join(errors)


def test_core_module_discovery_sees_the_package() -> None:
    mods = core_modules()
    assert mods[0].name == "handfoot"
    for mod in mods:
        assert mod.path.is_file(), f"core module {mod.name} has no source file {mod.path}"
        assert mod.name.split(".")[-1] not in NON_CORE_SUBPACKAGES


# ---------------------------------------------------------------------- one-way modules
def _runtime_core_imports(path: Path) -> set[str]:
    """The core modules a core module imports when it runs (not under TYPE_CHECKING)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in tree.body:  # module level only: imports inside functions are for callers
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found |= {alias.name for alias in node.names}
    return found


def test_the_core_imports_in_one_direction() -> None:
    graph = {p.stem: _runtime_core_imports(p) for p in PACKAGE_DIR.glob("*.py")
             if p.stem != "__init__"}
    # Depth-first search for a cycle.
    state: dict[str, int] = {}

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for nxt in sorted(graph.get(name, ())):
            if state.get(nxt) == 1:
                raise AssertionError("import cycle: " + " -> ".join([*path, name, nxt]))
            if state.get(nxt) is None:
                visit(nxt, [*path, name])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [])
    # The layers of docs/ARCHITECTURE.md.
    assert not graph["facts"] & {"legality", "transitions", "flow", "engine"}
    assert not graph["transitions"] & {"legality", "flow", "engine"}
    assert not graph["legality"] & {"flow", "engine"}
    assert "engine" not in graph["flow"]


# ---------------------------------------------------------------------- the outer packages
# Which outer package may import which (every one may import the core).  Imports inside
# functions count too: a lazy import is still an arrow, only a later one.  docs/ARCHITECTURE.md
# draws the same arrows; a new package, or a new arrow, is added here on purpose or not at all.
ALLOWED_ARROWS: dict[str, frozenset[str]] = {
    "files": frozenset(),
    "bots": frozenset(),
    "sim": frozenset({"bots"}),
    "env": frozenset({"bots"}),
    "openspiel": frozenset({"env", "bots"}),
    "learn": frozenset({"env", "bots", "sim"}),  # learned bots and their training
    "scorekeeper": frozenset({"files"}),
    "print": frozenset({"scorekeeper"}),
    # play --join: the terminal speaks the web table's protocol through server/client.py.
    "tui": frozenset({"bots", "files", "server"}),
    "server": frozenset({"bots", "files"}),
    "cli": frozenset({"*"}),  # the command line starts every room
}


def _outer_imports(source: str, module: tuple[str, ...]) -> list[tuple[str, int]]:
    """(outer package, line) for every import of another outer package in one module (its
    path under handfoot/, e.g. ("bots", "policy")), at any depth (module level, in functions,
    under TYPE_CHECKING) and by importlib with a literal name."""
    tree = ast.parse(source)
    here = ["handfoot", *module[:-1]]  # the package a level-1 relative import refers to
    found: list[tuple[str, int]] = []

    def note(target: list[str], line: int) -> None:
        if (len(target) >= 2 and target[0] == "handfoot" and target[1] in _subpackages()
                and target[1] != module[0]):
            found.append((target[1], line))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                note(alias.name.split("."), node.lineno)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - (node.level - 1)]
                target = base + (node.module.split(".") if node.module else [])
            else:
                target = (node.module or "").split(".")
            if len(target) == 1:  # `from handfoot import bots` / `from .. import bots`
                for alias in node.names:
                    note([*target, alias.name], node.lineno)
            else:
                note(target, node.lineno)
        elif isinstance(node, ast.Call):
            func = node.func
            dynamic = (isinstance(func, ast.Name) and func.id == "__import__") or (
                isinstance(func, ast.Attribute) and func.attr == "import_module")
            if dynamic and node.args and isinstance(node.args[0], ast.Constant) \
                    and isinstance(node.args[0].value, str):
                note(node.args[0].value.split("."), node.lineno)
    return found


def test_outer_packages_import_only_what_the_architecture_allows() -> None:
    packages = sorted(p.name for p in PACKAGE_DIR.iterdir()
                      if p.is_dir() and (p / "__init__.py").is_file())
    unknown = [p for p in packages if p not in ALLOWED_ARROWS]
    assert not unknown, f"outer packages with no arrows declared here: {unknown}"
    errors = []
    for package in packages:
        allowed = ALLOWED_ARROWS[package]
        for path in sorted((PACKAGE_DIR / package).rglob("*.py")):
            module = path.relative_to(PACKAGE_DIR).with_suffix("").parts
            for target, line in _outer_imports(path.read_text(encoding="utf-8"), module):
                if "*" not in allowed and target not in allowed:
                    errors.append(f"{path.relative_to(PACKAGE_DIR)}:{line}: {package} -> "
                                  f"{target}")
    assert errors == [], "imports against the arrows of docs/ARCHITECTURE.md:\n" + "\n".join(
        errors)


def test_the_arrow_check_sees_lazy_and_relative_imports() -> None:
    source = ("def f():\n    from ..env import encode\n    import handfoot.server.app\n"
              "    from handfoot import tui\n    from . import base\n    from .. import rules\n"
              "    importlib.import_module('handfoot.sim.arena')\n")
    found = {target for target, _ in _outer_imports(source, ("bots", "probe"))}
    assert found == {"env", "server", "tui", "sim"}
