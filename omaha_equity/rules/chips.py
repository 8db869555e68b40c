"""The largest number of chips the rules engine counts, and the one check of a chip amount.

Chips are Python ints everywhere in the engine, but the settlement splits the pots in a compiled
kernel that counts in int64 (``pots.settle_pots``). A hand whose stacks add up to at most
:data:`MAX_CHIPS` settles exactly; anything larger is refused when the hand is set up, with one
line, rather than failing at the showdown.
"""

from __future__ import annotations

from ..errors import InputError, quoted
from ..validate import is_whole_number

#: 2**63 - 1: the int64 of the settlement kernel; the stacks of one hand add up to at most this.
MAX_CHIPS = 2**63 - 1


def check_chips(value: object, what: str, minimum: int = 0) -> int:
    """``value`` if it is a whole number of chips from ``minimum`` to :data:`MAX_CHIPS`.

    Raises
    ------
    InputError
        ``bad stack 10000…0 (400 characters): expected a whole number of chips, 1 to
        9,223,372,036,854,775,807`` (a long value is shortened by ``errors.quoted``).
    """
    if not is_whole_number(value) or not minimum <= value <= MAX_CHIPS:
        raise InputError(f"bad {what} {quoted(value)}: expected a whole number of chips, {minimum} to {MAX_CHIPS:,}")
    return int(value)


def parse_chips(text: str, what: str, minimum: int = 0, within: str | None = None) -> int:
    """A whole number of chips written by a user (``"1_000"`` allowed), ``minimum`` to
    :data:`MAX_CHIPS`; the text is measured before it is read, so a 5,000-digit number costs
    nothing and comes back shortened in the error. ``within``: the whole text it was cut from
    (a list), quoted in the error too.

    Raises
    ------
    InputError
        ``bad bet '1.5': expected a whole number of chips, 0 to 9,223,372,036,854,775,807``.
    """
    token = text.strip().replace("_", "")
    digits = token[1:] if token[:1] in "+-" else token
    if not digits.isdigit() or len(digits) > len(str(MAX_CHIPS)) or not minimum <= int(token) <= MAX_CHIPS:
        where = f" in {quoted(within)}" if within is not None else ""
        raise InputError(f"bad {what} {quoted(text)}{where}: expected a whole number of chips, {minimum} to "
                         f"{MAX_CHIPS:,}")
    return int(token)
