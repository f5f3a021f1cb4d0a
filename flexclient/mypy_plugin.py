"""An optional mypy plugin for code that writes custom query keys in the parameter dict.

flexclient needs no plugin: keys of the API's open families (`pub_*`, `meta_*`, `priv_*`,
`prot_*`, `fields.*`, `imageVariant.*`, `limit.*`) go in the `custom=` argument of every
endpoint method, which mypy and pyright both check (docs/typing.md). Code written the way
the official JS SDK's docs write it, with those keys in the same dict as the documented ones
(`{"perPage": 5, "pub_color": "red"}`), is refused by both checkers. With this plugin, mypy
accepts such a dict literal and still checks its documented keys: their value types, a key
that is neither documented nor custom (a typo), and the keys the endpoint needs. pyright has
no such plugin, so prefer `custom=` in new code.

    [mypy]
    plugins = flexclient.mypy_plugin
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.errorcodes import TYPEDDICT_ITEM, TYPEDDICT_UNKNOWN_KEY
from mypy.messages import format_type
from mypy.nodes import DictExpr, Expression, StrExpr
from mypy.plugin import MethodContext, MethodSigContext, Plugin
from mypy.subtypes import is_subtype
from mypy.types import AnyType, FunctionLike, Type, TypedDictType, TypeOfAny, get_proper_type

from flexclient._endpoints.checks import CUSTOM_PREFIXES

# The open families, as the client's own checks know them (a name kept for this module's users).
CUSTOM_KEY_PREFIXES = CUSTOM_PREFIXES

_QUERY_METHODS = ("__call__", "iter", "pages")
_QUERIES = ("Query", "OptionalQuery", "ListQuery", "OptionalListQuery")
_COMMANDS = ("Command", "OptionalCommand", "Upload")
# The methods hooked, and the position of the argument whose dict literal may hold custom
# keys: the query parameters (the first argument of a query, the second of a command).
_HOOKED = {
    **{f"flexclient._endpoints.kinds.{c}.{m}": 0 for c in _QUERIES for m in _QUERY_METHODS},
    **{f"flexclient._endpoints.kinds.{c}.__call__": 1 for c in _COMMANDS},
}

# The TypedDict a hooked literal was declared with, from the signature hook to the check.
_declared: dict[int, TypedDictType] = {}


def is_custom_key(key: str) -> bool:
    """True for keys of the API's open families (`pub_color`, `fields.image`, ...)."""
    return any(key.startswith(p) and len(key) > len(p) for p in CUSTOM_KEY_PREFIXES)


def _custom_literal(args: list[list[Expression]], position: int) -> DictExpr | None:
    """The call's dict literal at `position`, when it uses custom keys (else mypy checks it)."""
    if len(args) <= position or len(args[position]) != 1:
        return None
    expr = args[position][0]
    if not isinstance(expr, DictExpr):
        return None
    keys = [k.value for k, _ in expr.items if isinstance(k, StrExpr)]
    return expr if any(is_custom_key(k) for k in keys) else None


def _accept_literal(position: int) -> Callable[[MethodSigContext], FunctionLike]:
    def hook(ctx: MethodSigContext) -> FunctionLike:
        # With custom keys, mypy's own TypedDict check would refuse the literal: take it as
        # it is here, and check its documented keys in `_check_literal` below.
        sig = ctx.default_signature
        literal = _custom_literal(ctx.args, position)
        if literal is None or len(sig.arg_types) <= position:
            return sig
        declared = get_proper_type(sig.arg_types[position])
        if not isinstance(declared, TypedDictType):
            return sig
        _declared[id(literal)] = declared
        arg_types = list(sig.arg_types)
        arg_types[position] = AnyType(TypeOfAny.special_form)
        # The ignore: mypy types copy_modified's parameters as `Bogus[...]`, a FlexibleAlias
        # that only mypy reads; pyright sees them as Unknown.
        return sig.copy_modified(arg_types=arg_types)  # pyright: ignore[reportUnknownMemberType]

    return hook


def _check_literal(position: int) -> Callable[[MethodContext], Type]:
    def hook(ctx: MethodContext) -> Type:
        literal = _custom_literal(ctx.args, position)
        td = _declared.pop(id(literal), None) if literal is not None else None
        if literal is None or td is None:
            return ctx.default_return_type
        name = td.fallback.type.name
        seen: set[str] = set()
        for key_expr, value_expr in literal.items:
            if not isinstance(key_expr, StrExpr):
                continue
            key = key_expr.value
            seen.add(key)
            if key in td.items:
                expected = td.items[key]
                actual = ctx.api.get_expression_type(value_expr, expected)
                if not is_subtype(actual, expected):
                    got = format_type(actual, ctx.api.options)
                    want = format_type(expected, ctx.api.options)
                    ctx.api.fail(
                        f'Value of "{key}" has incompatible type {got}; expected {want}',
                        value_expr,
                        code=TYPEDDICT_ITEM,
                    )
            elif not is_custom_key(key):
                ctx.api.fail(
                    f'"{name}" has no key "{key}" (custom keys start with '
                    f"{', '.join(CUSTOM_KEY_PREFIXES)})",
                    key_expr,
                    code=TYPEDDICT_UNKNOWN_KEY,
                )
        missing = sorted(td.required_keys - seen)
        if missing:
            ctx.api.fail(
                f"Missing key{'s' if len(missing) > 1 else ''} {', '.join(map(repr, missing))}"
                f' for "{name}"',
                literal,
                code=TYPEDDICT_ITEM,
            )
        return ctx.default_return_type

    return hook


class FlexclientPlugin(Plugin):
    def get_method_signature_hook(
        self, fullname: str
    ) -> Callable[[MethodSigContext], FunctionLike] | None:
        position = _HOOKED.get(fullname)
        return None if position is None else _accept_literal(position)

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        position = _HOOKED.get(fullname)
        return None if position is None else _check_literal(position)


def plugin(version: str) -> type[Plugin]:
    """The entry point mypy calls."""
    return FlexclientPlugin
