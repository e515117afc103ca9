# mypy.conf's fixtures, sourced by its setup() in each scratch folder
printf 'x = 1\n' > ok.py
printf 'x: int = "a"\n' > assign.py
printf 'def f(x: int) -> None:\n    pass\n\n\nf("a")\n' > arg.py
printf 'class A:\n    pass\n\n\nA().foo\n' > attrdef.py
printf 'def f() -> int:\n    return "a"\n' > ret.py
printf '# mypy: warn-unreachable\ndef f(x: int) -> int:\n    return x\n    print(x)\n' > unreach.py
printf 'from typing import overload\n\n\n@overload\ndef f(x: int) -> int: ...\n@overload\ndef f(x: bytes) -> bytes: ...\ndef f(x): return x\n\n\nf("a")\n' > overload.py
printf 'from typing import overload\n\n\n@overload\ndef f(x: int) -> int: ...\ndef f(x: int) -> int:\n    return x\n' > overload1.py
printf 'from typing import overload, Union\n\n\n@overload\ndef f(x: int) -> int: ...\n@overload\ndef f(x: str) -> str: ...\ndef f(x: int) -> Union[int, str]:\n    return x\n' > overimpl.py
printf 'from typing import Protocol\n\n\nclass P(Protocol):\n    def m(self) -> int: ...\n\n\nP()\n' > proto.py
printf 'from typing import Protocol\n\n\nclass P(Protocol):\n    x: int\n\n\nclass C:\n    x: str\n\n\ndef f(p: P) -> None:\n    pass\n\n\nf(C())\n' > proto2.py
printf 'from typing import TypedDict\n\n\nclass TD(TypedDict):\n    a: int\n\n\nd: TD = {"a": 1, "b": 2}\n' > tdextra.py
printf 'from typing import TypedDict\n\n\nclass TD(TypedDict):\n    a: int\n    b: str\n\n\nd: TD = {"a": 1}\n' > tdmissing.py
printf 'from typing import TypedDict\n\n\nclass TD(TypedDict):\n    a: int\n\n\ndef f(d: TD) -> None:\n    d["z"]\n' > tdkey.py
printf 'x: 1 = 1\n' > annot.py
printf 'from typing import List\n\nx: List[int, str] = []\n' > targs.py
printf 'def f():\n    pass\n\n\nx: f = 1\n' > notvalid.py
printf 'def f(:\n    pass\n' > syntax.py
printf 'import nosuchmodule_re\n' > importnf.py
printf 'from os import nosuchname\n' > impname.py
printf 'print(undefined_name)\n' > name.py
printf 'def f(x: int) -> None:\n    pass\n\n\nf(1, 2)\n' > toomany.py
printf 'def f(x: int) -> None:\n    pass\n\n\nf()\n' > missing.py
printf 'def f(x: int) -> None:\n    pass\n\n\nf(1, y=2)\n' > kw.py
printf 'x = 1 + "a"\n' > operand.py
printf 'x = 1\nx()\n' > notcall.py
printf 'x = 1\nx[0]\n' > index.py
printf 'from abc import ABC, abstractmethod\n\n\nclass A(ABC):\n    @abstractmethod\n    def f(self) -> None: ...\n\n\nA()\n' > abstract.py
printf 'class A:\n    def f(self) -> int:\n        return 1\n\n\nclass B(A):\n    def f(self) -> str:\n        return "a"\n' > override.py
printf 'class A:\n    def f(self, x: int) -> None:\n        pass\n\n\nclass B(A):\n    def f(self, x: str) -> None:\n        pass\n' > overarg.py
printf 'def f(x: int) -> int:\n    if x:\n        return 1\n' > noreturn.py
printf 'x = []\n' > needann.py
printf 'from typing import Optional\n\n\ndef f(x: Optional[int]) -> None:\n    x.real\n' > union.py
printf '# mypy: warn-unused-ignores\nx = 1  # type: ignore\n' > unusedign.py
printf 'def f() -> None:\n    pass\n\n\ndef f() -> None:\n    pass\n' > redef.py
printf 'def f(x: int = None) -> None:\n    pass\n' > default.py
printf 'from typing import Final\n\nX: Final = 1\nX = 2\n' > final.py
printf 'from typing import Literal\n\nx: Literal[1.5] = 1.5\n' > literal.py
printf 'import os\n\nos.nosuchattr\n' > modattr.py
printf 'from typing_extensions import assert_type\n\nassert_type(1, str)\n' > asserttype.py
printf 'return 1\n' > retout.py
printf 'yield 1\n' > yieldout.py
printf 'from dataclasses import dataclass\n\n\n@dataclass\nclass A:\n    x: int = 1\n    y: int\n' > dataclass.py
printf 'from typing import TypeVar\n\nT = TypeVar("T")\n\n\ndef f() -> T:\n    ...\n' > typevar.py
printf 'from typing import Any, cast\n\nx = cast(int, 1)\n' > cast.py
printf '# mypy: warn-return-any\nfrom typing import Any\n\n\ndef f(x: Any) -> int:\n    return x\n' > retany.py
printf '# mypy: disallow-untyped-defs\ndef f(x):\n    return x\n' > untyped.py
printf '# mypy: disallow-incomplete-defs\ndef f(x: int, y) -> int:\n    return x\n' > incomplete.py
printf '# mypy: disallow-any-generics\ndef f(x: list) -> None:\n    pass\n' > generics.py
printf '# mypy: strict-equality\nx = 1\nif x == "a":\n    pass\n' > equality.py
printf '# mypy: nosuch-option\nx = 1\n' > inlinebad.py
printf '# mypy: python_version=3.8\nx = 1\n' > inlineglobal.py
printf 'from typing import NamedTuple\n\n\nclass N(NamedTuple):\n    _x: int\n' > namedtuple.py
printf 'from enum import Enum\n\n\nclass E(Enum):\n    A = 1\n\n\nclass F(E):\n    B = 2\n' > enumfinal.py
printf 'class A:\n    x: int\n\n\nA.x = "a"\n' > classattr.py
printf 'async def g() -> None:\n    pass\n\n\ndef f() -> None:\n    await g()\n' > awaitfn.py
printf 'x: int = 1\nx.append(2)\n' > append.py
printf 'from typing import Tuple\n\nt: Tuple[int, int] = (1, 2)\nt[5]\n' > tupleidx.py
printf 'def f(*, x: int) -> None:\n    pass\n\n\nf(1)\n' > kwonly.py
printf 'for x in 1:\n    pass\n' > iterable.py
printf 'class A:\n    __slots__ = ("x",)\n\n    def __init__(self) -> None:\n        self.y = 1\n' > slots.py
printf 'class A:\n    pass\n\n\nclass B(A, A):\n    pass\n' > dupbase.py
printf 'x: "List[int]" = []\n' > fwdref.py
printf 'from typing import Callable\n\nf: Callable[int, int]\n' > callable.py
printf 'import typing\n\nx: typing.NoSuch = 1\n' > typingattr.py
printf 'def f(x: int) -> None:\n    pass\n\n\nf(*1)\n' > star.py
printf 'x = {1: "a"}\ny: str = x["a"]\n' > dictkey.py
printf 'class A:\n    def __init__(self, x: int) -> None:\n        pass\n\n\nA(1, z=1)\n' > ctor.py
printf 'import typing\n\n\ndef f() -> typing.Generator[int, None, None]:\n    return 1\n' > genret.py
mkdir -p a b && printf 'x = 1\n' > a/m.py && printf 'x = 1\n' > b/m.py
mkdir -p pkg && printf '' > pkg/__init__.py && printf 'x = 1\n' > pkg/mod.py
printf 'x = 1\n' > 'bad-name.py'
printf '[mypy]\nfoo = bar\n' > unknown.ini
printf '[mypy\nfoo = bar\n' > broken.ini
printf '[other]\nx = 1\n' > nosection.ini
printf '[mypy]\nwarn_unused_ignores = maybe\n' > notbool.ini
printf '[mypy]\npython_version = 2.7\n' > py27.ini
printf '[mypy]\npython_version = 3.1\n' > py31.ini
printf '[mypy]\npython_version = 3.x\n' > pyver.ini
printf '[mypy]\npython_version = 4.0\n' > py4.ini
printf '[mypy]\n\n[mypy-ok]\npython_version = 3.8\n' > permodule.ini
printf '[mypy]\n\n[mypy-foo*bar]\nignore_errors = True\n' > pattern.ini
printf '[mypy]\nfollow_imports = sometimes\n' > follow.ini
printf '[mypy]\ndisable_error_code = nosuch-code\n' > badcode.ini
printf '[mypy]\nplugins = nosuch_plugin_re\n' > plugin.ini
printf '[mypy]\nplugins = nosuch_plugin.py\n' > pluginpy.ini
printf '[mypy]\nwarn_unused_configs = True\n\n[mypy-nosuch_unused_re]\nignore_errors = True\n' > unused.ini
printf '[mypy]\nnosuch_report = out\n' > report.ini
printf '[mypy]\n\n[mypy-ok]\nhtml_report = out\n' > modreport.ini
printf '[mypy]\nno_nosuch = True\n' > invert.ini
printf '[mypy]\nmany_errors_threshold = lots\n' > notint.ini
printf 'def f(:\n' > plugin_broken.py
printf '[mypy]\nplugins = plugin_broken.py\n' > pluginsyntax.ini
printf 'x = 1\n' > plugin_noentry.py
printf '[mypy]\nplugins = plugin_noentry.py\n' > pluginentry.ini
printf 'def plugin(version):\n    return 1\n' > plugin_notclass.py
printf '[mypy]\nplugins = plugin_notclass.py\n' > pluginret.ini
printf '[tool.mypy]\nfoo = 1\n' > unknown.toml
printf '[tool.mypy\nfoo = 1\n' > broken.toml
printf '[tool.mypy]\noverrides = 1\n' > ovarray.toml
printf '[tool.mypy]\n\n[[tool.mypy.overrides]]\nignore_errors = true\n' > ovnomod.toml
printf '[tool.mypy]\n\n[[tool.mypy.overrides]]\nmodule = 1\nignore_errors = true\n' > ovmodtype.toml
printf '[tool.mypy]\n\n[[tool.mypy.overrides]]\nmodule = "m"\nignore_errors = true\n\n[[tool.mypy.overrides]]\nmodule = "m"\nignore_errors = false\n' > ovconflict.toml
printf '[tool.mypy]\npython_version = 3.1\n' > tomlpy.toml
printf '[tool.mypy]\nwarn_unused_ignores = "maybe"\n' > tomlbool.toml
mkdir -p proj1 && printf '[mypy]\nfoo = bar\n' > proj1/setup.cfg && printf 'x = 1\n' > proj1/ok.py
mkdir -p proj2 && printf '[tool.mypy]\nbar = 1\n' > proj2/pyproject.toml && printf 'x = 1\n' > proj2/ok.py
mkdir -p proj4 && printf '[mypy]\nfiles = nosuchdir_re\n' > proj4/mypy.ini
printf 'from typing import TypedDict\n\n\nclass TD(TypedDict):\n    x: int = 1\n' > tdrhs.py
printf 'from typing import NewType\n\nN = NewType("M", int)\n' > newtype.py
printf 'from typing import ClassVar\n\nx: ClassVar[int] = 1\n' > classvar.py
printf 'from typing import Protocol\n\n\nclass P(Protocol):\n    pass\n\n\nisinstance(1, P)\n' > runtimecheck.py
printf 'from enum import Enum\n\n\nclass E(Enum):\n    A = 1\n\n\nE.C\n' > enumattr.py
printf 'async def f() -> None:\n    pass\n\n\nasync def g() -> None:\n    f()\n' > coro.py
printf 'x = 1  # type: ignore[\n' > ignorebad.py
printf 'x = 1  # type: int int\n' > typecomment.py
printf 'def f(x):\n    # type: (int, str) -> None\n    pass\n' > sigcount.py
printf 'a, b = 1, 2, 3\n' > unpack.py
printf 'a, b = 1\n' > unpack2.py
printf 'from typing import TypeVar, Generic\n\nT = TypeVar("T", covariant=True)\n\n\nclass A(Generic[T]):\n    def f(self, x: T) -> None:\n        pass\n' > covariant.py
printf 'from typing import Iterator\n\n\ndef f() -> Iterator[int]:\n    yield "a"\n' > yieldtype.py
printf 'class A:\n    def f() -> None:\n        pass\n' > selfarg.py
printf 'class A:\n    @property\n    def x(self) -> int:\n        return 1\n\n\nA().x = 2\n' > propset.py
printf 'from typing import TypeVar\n\nT = TypeVar("U")\n' > typevarname.py
printf 'from typing import Final\n\nX: Final\n' > finalnoinit.py
printf 'def f() -> None:\n    nonlocal x\n' > nonlocal_.py
printf 'def f(x: int, x: int) -> None:\n    pass\n' > dupparam.py
printf 'a = *[1]\n' > starexpr.py
printf 'class A:\n    pass\n\n\nclass B(A):\n    pass\n\n\nclass C(A, B):\n    pass\n' > inconsistentmro.py
