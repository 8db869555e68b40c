"""A click command that reads a plain command line without click's general parser.

Click's parser is general (option prefixes, ``--name=value``, grouped short flags, prefix
matching of long options) and pays for it on every line: for each short option it first tries
the long form and builds a ``NoSuchOption`` error (a gettext look-up and a difflib search for
suggestions) before it tries the short form, whatever the options are declared as. Measured
on ``calc`` lines typed into ``omaha-equity shell``: click's parsing was 45% of the time, a
quarter of it in those error objects.

:class:`FastParseCommand` reads the lines most people type (whole option names such as ``-b``
or ``--board`` each followed by its value, flags, and the arguments) directly: each value goes
through the parameter's own type, check and callback (``Parameter.process_value``, click's
public step), and the defaults of the options not typed are taken once from click itself. Any
other line, and any line whose values click would refuse, goes through click's own parser
unchanged, so the values, the errors and their messages are always click's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import click
from click.core import ParameterSource

# click 8.3 and later hold a parameter no one typed as this sentinel until the end of parsing,
# when it becomes None; older versions use None throughout.
_UNSET = getattr(click.core, "UNSET", None)

# Values that a default may be shared between lines as (never changed in place).
_IMMUTABLE = (type(None), bool, int, float, str, bytes, frozenset)


@dataclass(frozen=True)
class _Layout:
    """What a command's plain lines may hold: the option strings a value or flag is read for,
    the arguments in order (``variadic``: a single argument taking every word), and every
    parameter with the name its value is exposed as (None: not exposed) and whether it is left
    alone when not typed (click's own help and version flags)."""

    options: dict[str, click.Option]
    arguments: tuple[click.Argument, ...]
    variadic: bool
    parameters: tuple[tuple[click.Parameter, str | None, bool], ...]


def _simple_option(option: click.Option) -> bool:
    """An option read as one word after its name (or a boolean flag without a ``--no-`` form),
    taken from the command line only."""
    if option.multiple or option.count or option.is_eager or option.envvar or option.prompt or not option.expose_value:
        return False
    if option.secondary_opts or getattr(option, "_flag_needs_value", False):
        return False
    if option.is_flag:  # a flag that is False unless typed, True when typed
        return bool(option.is_bool_flag) and option.flag_value in (True, _UNSET) and option.default in (False, _UNSET)
    return option.nargs == 1


def _layout(command: click.Command) -> _Layout | None:
    """The plain-line layout of ``command``, or None when its arguments are not plain (one
    taking every word, or several taking one word each)."""
    options: dict[str, click.Option] = {}
    arguments = []
    for parameter in command.params:
        if isinstance(parameter, click.Argument):
            if parameter.envvar:
                return None
            arguments.append(parameter)
        elif isinstance(parameter, click.Option) and _simple_option(parameter):
            options.update((name, parameter) for name in parameter.opts)
    variadic = len(arguments) == 1 and arguments[0].nargs == -1
    if not variadic and any(argument.nargs != 1 for argument in arguments):
        return None
    # command.params: get_params adds only the help option (never typed in a plain line), and
    # checks the names for clashes on every call
    parameters = tuple((parameter, parameter.name if parameter.expose_value else None, _acts_only_when_given(parameter))
                       for parameter in command.params)
    return _Layout(options, tuple(arguments), variadic, parameters)


class FastParseCommand(click.Command):
    """A ``click.Command`` that reads a plain line directly (see the module docstring); any
    other line goes through click's parser. The values the command receives are click's.

    A group gets the same by listing this class after ``click.Group`` among its bases (its
    options before the command name are read here; the command and its words are left over for
    the group to dispatch, as click's parser leaves them)."""

    _plain_layout: _Layout | None
    _defaults: dict[str, tuple[Any, ParameterSource]]

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        parsed = self.plain_values(ctx, args)
        if parsed is None:
            return super().parse_args(ctx, args)
        values, rest = parsed
        for name, (value, source) in values.items():
            ctx.params[name] = value
            ctx.set_parameter_source(name, source)
        ctx.args = rest
        return rest

    def plain_values(self, ctx: click.Context, args: list[str]
                     ) -> tuple[dict[str, tuple[Any, ParameterSource]], list[str]] | None:
        """``({parameter name: (value, source)}, words left over)`` for a plain line, as click's
        parser would set them (words are left over only where the context takes extra words and
        options stop at the first word, as a group's do); None for any other line, or one click
        would refuse (its parser then says why)."""
        if not args or ctx.resilient_parsing or ctx.token_normalize_func or ctx.default_map or ctx.auto_envvar_prefix:
            return None
        try:
            layout = self._plain_layout
        except AttributeError:
            layout = self._plain_layout = _layout(self)
            self._defaults = {}
        if layout is None:
            return None
        typed: dict[click.Parameter, Any] = {}
        words: list[str] = []
        rest: list[str] = []
        index = 0
        while index < len(args):
            word = args[index]
            index += 1
            if word[:1] != "-" or len(word) == 1:
                if not ctx.allow_interspersed_args:  # options end at the first word
                    rest = args[index - 1:]
                    break
                words.append(word)
                continue
            option = layout.options.get(word)
            if option is None or option in typed:
                return None  # "--", "--name=value", grouped flags, help, an unknown or repeated option
            if option.is_flag:
                typed[option] = True
                continue
            if index == len(args) or (args[index][:1] == "-" and len(args[index]) > 1):
                return None  # a missing value, or one that looks like an option: click decides
            typed[option] = args[index]
            index += 1
        if rest and (not ctx.allow_extra_args or rest[0][:1] == "-"):
            return None
        if layout.variadic:
            if not words:
                return None
            typed[layout.arguments[0]] = tuple(words)
        elif len(words) != len(layout.arguments):
            return None
        else:
            typed.update(zip(layout.arguments, words))
        values: dict[str, tuple[Any, ParameterSource]] = {}
        try:
            for parameter, name, left_alone in layout.parameters:
                if parameter in typed:
                    value = (parameter.process_value(ctx, typed[parameter]), ParameterSource.COMMANDLINE)
                elif left_alone:
                    continue
                else:
                    value = self._defaults.get(parameter.name) or self._default(ctx, parameter)
                if name is not None:
                    values[name] = value
        except click.ClickException:
            return None
        return values, rest

    def _default(self, ctx: click.Context, parameter: click.Parameter) -> tuple[Any, ParameterSource]:
        """A parameter's value when not typed, as click sets it (kept for the next lines when
        it is immutable and no callback may change it)."""
        name = parameter.name
        assert name is not None
        if name in self._defaults:
            return self._defaults[name]
        scratch = click.Context(self, info_name=ctx.info_name, parent=ctx.parent)
        parameter.handle_parse_result(scratch, {}, [])
        value = scratch.params.get(name)
        if value is _UNSET:
            value = None
        source = scratch.get_parameter_source(name) or ParameterSource.DEFAULT
        if parameter.callback is None and isinstance(value, _IMMUTABLE + (tuple,)) and _frozen(value):
            self._defaults[name] = (value, source)
        return value, source


def _acts_only_when_given(parameter: click.Parameter) -> bool:
    """click's own ``--help`` and ``--version`` flags (values never exposed, callbacks from
    click that do nothing unless the flag was typed)."""
    return (isinstance(parameter, click.Option) and parameter.is_flag and not parameter.expose_value
            and getattr(parameter.callback, "__module__", None) in ("click.core", "click.decorators"))


def _frozen(value: Any) -> bool:
    """Whether ``value`` (and everything in it) can't be changed in place."""
    if isinstance(value, tuple):
        return all(_frozen(item) for item in value)
    return isinstance(value, _IMMUTABLE)
