"""A mypy plugin that accepts the API's custom query keys in typed parameters.

Typed parameter dicts (`flexclient.params`) list the documented keys of an endpoint. The API
also takes keys of open-ended families: extended-data filters (`pub_*`, `meta_*`, `priv_*`,
`prot_*`), sparse fields (`fields.*`), image variants (`imageVariant.*`) and relationship limits
(`limit.*`). mypy cannot express "these keys, typed, plus any key of those families" (PEP 728
is not supported), so this plugin handles the parameters of a query call, for that call
only: a call whose dict literal uses custom keys has its documented keys checked by this
plugin instead of by mypy's TypedDict rules. Documented keys stay checked, and a key that is
neither documented nor custom (a typo such as `perpage`) is still an error.

Enable it in the mypy configuration:

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
from mypy.types import (
    AnyType,
    FunctionLike,
    Instance,
    Type,
    TypedDictType,
    TypeOfAny,
    get_proper_type,
)

CUSTOM_KEY_PREFIXES = ("pub_", "meta_", "priv_", "prot_", "fields.", "imageVariant.", "limit.")
# The calls that take query parameters first.
_HOOKED = frozenset(
    {
        "flexclient._endpoint.BoundQuery.__call__",
        "flexclient._endpoint.BoundListQuery.__call__",
        "flexclient._endpoint.BoundListQuery.iter",
        "flexclient._endpoint.BoundListQuery.pages",
    }
)


def is_custom_key(key: str) -> bool:
    """True for keys of the API's open-ended families (`pub_color`, `fields.image`, ...)."""
    return any(key.startswith(p) and len(key) > len(p) for p in CUSTOM_KEY_PREFIXES)


def _custom_literal(args: list[list[Expression]]) -> DictExpr | None:
    """The call's params dict literal, when it uses custom keys (otherwise mypy checks it)."""
    if not args or len(args[0]) != 1:
        return None
    expr = args[0][0]
    if not isinstance(expr, DictExpr):
        return None
    keys = [k.value for k, _ in expr.items if isinstance(k, StrExpr)]
    return expr if any(is_custom_key(k) for k in keys) else None


def _accept_literal(ctx: MethodSigContext) -> FunctionLike:
    # With custom keys, mypy's own TypedDict check would reject the literal; take it as it
    # is here, and check its documented keys in _check_literal below.
    sig = ctx.default_signature
    if _custom_literal(ctx.args) is None or not sig.arg_types:
        return sig
    return sig.copy_modified(arg_types=[AnyType(TypeOfAny.special_form), *sig.arg_types[1:]])


def _params_type(ctx: MethodContext) -> TypedDictType | None:
    bound = get_proper_type(ctx.type)
    if isinstance(bound, Instance) and bound.args:
        td = get_proper_type(bound.args[0])
        if isinstance(td, TypedDictType):
            return td
    return None


def _check_literal(ctx: MethodContext) -> Type:
    literal = _custom_literal(ctx.args)
    td = _params_type(ctx)
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


class FlexclientPlugin(Plugin):
    def get_method_signature_hook(
        self, fullname: str
    ) -> Callable[[MethodSigContext], FunctionLike] | None:
        return _accept_literal if fullname in _HOOKED else None

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        return _check_literal if fullname in _HOOKED else None


def plugin(version: str) -> type[Plugin]:
    """The entry point mypy calls."""
    return FlexclientPlugin
